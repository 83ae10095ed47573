/**
 * The media identity of Convene's captions worker in a room: derived from the agent dispatch that
 * `POST /captions/start` created, so the server can tell the call page whom to believe. Only a
 * holder of the media layer's API secret can join under it (Convene mints every participant's
 * identity as `p_…`), and the media layer stamps each relayed packet with its sender's identity, so
 * no participant can send captions as the worker. No imports: the worker (agents/captions) uses it.
 */
export function captionsAgentIdentity(dispatchId: string) {
  return `captions-${dispatchId}`;
}

/** The dispatch a captions agent's identity names, or null for any other identity. */
export function dispatchOfCaptionsAgent(identity: string): string | null {
  return identity.startsWith('captions-') && identity.length > 'captions-'.length
    ? identity.slice('captions-'.length)
    : null;
}
