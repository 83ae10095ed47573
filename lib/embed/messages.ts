/**
 * The messages of the embedding protocol (docs/hosted-ui.md): names and shapes the hosted call UI
 * and every page that frames it share. The SDK (@convene/sdk/embed) cannot import the app, so
 * `npm run sdk:generate` copies this file as it is to sdk/src/generated/embed-messages.ts:
 * keep it self-contained (no imports), and regenerate after a change (test/sdk/sdk-embed.test.ts
 * fails until then).
 *
 * UI → parent: `{ source: 'convene', version: 1, event, data }`.
 * Parent → UI: `{ source: 'convene-embed', command, ...args }`.
 */
export const PROTOCOL_VERSION = 1;
export const EVENT_SOURCE = 'convene';
export const COMMAND_SOURCE = 'convene-embed';

export type LeftReason = 'left' | 'removed' | 'ended' | 'refused';

/** What the call UI tells the parent page, by event name. */
export interface EmbedEvents {
  /** The page is up and listens for commands. */
  ready: { page: 'join' | 'waiting' };
  joined: { participantCount: number };
  /** The person is out: they left, a host removed them, the meeting ended, or they were refused from the waiting room. */
  left: { reason: LeftReason };
  waiting: Record<string, never>;
  admitted: Record<string, never>;
  'participant-joined': { displayName: string; participantCount: number };
  'participant-left': { displayName: string; participantCount: number };
  /** An error screen (code as in the UI): expiredToken, invalidToken, missingToken, refused, unreachable, locked, roomFull, ... */
  error: { code: string };
  'recording-started': Record<string, never>;
  'recording-stopped': Record<string, never>;
  /** A command that could not be carried out now. */
  'command-failed': { command: string; reason: 'not-in-call' | 'not-allowed' | 'invalid' };
}
export type EmbedEventName = keyof EmbedEvents;

/** What the parent page may ask of the call UI. */
export type EmbedCommand =
  | { command: 'leave' }
  | { command: 'toggle-microphone' }
  | { command: 'toggle-camera' }
  | { command: 'set-display-name'; displayName: string };
