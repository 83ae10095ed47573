/** Every text of the hosted call UI, in one place so translations can follow. */
export const en = {
  joiningAs: (name: string) => `Joining as ${name}`,
  join: 'Join meeting',
  camera: 'Camera',
  microphone: 'Microphone',
  connecting: 'Connecting…',
  e2eeBadge: 'End-to-end encrypted',
  recordingBadge: 'Recording',
  retry: 'Try again',
  rejoin: 'Rejoin',
  waiting: {
    title: 'Waiting to be let in',
    body: 'The host has been told you are here. This page continues into the meeting as soon as you are admitted.',
    denied: { title: 'You were not admitted', body: 'The host declined your request to join this meeting.' },
    lost: { title: 'This waiting link is not valid', body: 'Use the complete link you were given, including everything after the # sign.' },
  },
  errors: {
    missingToken: { title: 'This link is incomplete', body: 'The meeting link is missing its access token. Ask the organiser for a new link.' },
    invalidToken: { title: 'This link is not valid', body: 'The meeting link could not be read. Ask the organiser for a new link.' },
    expiredToken: { title: 'This link has expired', body: 'Meeting links are valid for a limited time. Go back to where you started and join again to get a fresh link.' },
    refused: { title: 'You could not be let in', body: 'The meeting service refused this link. It may have been revoked, or be for another meeting.' },
    unreachable: { title: 'The meeting service cannot be reached', body: 'Check your connection and try again. If it keeps happening, the service may be down.' },
    e2eeKeyMissing: { title: 'This meeting is end-to-end encrypted', body: 'The link you opened does not include the encryption key. Use the complete link you were given, including everything after the # sign.' },
    e2eeUnsupported: { title: 'Your browser cannot join this meeting', body: 'This meeting is end-to-end encrypted and your browser does not support it. Try a recent version of Chrome, Edge, Firefox or Safari.' },
    removed: { title: 'You were removed from the meeting', body: 'A host removed you from this meeting.' },
    ended: { title: 'The meeting has ended', body: 'The host ended this meeting.' },
    left: { title: 'You left the meeting', body: 'You can rejoin while your link is valid.' },
    networkLost: { title: 'Connection lost', body: 'Your connection to the meeting was lost.' },
    unknown: { title: 'Something went wrong', body: 'The meeting could not be joined.' },
  },
} as const;

export type ErrorKey = keyof typeof en.errors;
export const t = en;
