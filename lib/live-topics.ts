/**
 * The data-channel topics of live updates, for the server that sends them (lib/domain/live-updates.ts)
 * and the call UI that reads them (components/call). What each topic carries, who may send it and
 * the one reader of a packet are in lib/live-messages.ts, which the call loads with the first
 * packet: its schemas (zod) are not part of joining a call.
 */
export const LIVE_TOPICS = {
  polls: 'convene.polls',
  questions: 'convene.questions',
  chat: 'convene.chat',
  /** To one person only: { type: 'host.muted', source: 'microphone' | 'camera', by } (a host muted them) */
  host: 'convene.host',
  /** From a peer: { type: 'reaction', emoji } — attributed from the packet's sender, rate-limited by the reader */
  reactions: 'convene.reactions',
  /** To everyone: { type: 'captions.state', active, agentIdentity } (captions started or stopped) */
  captions: 'convene.captions',
} as const;

/** The emoji reactions a call offers (a closed list: nothing else is shown). */
export const REACTION_EMOJI = ['👍', '👏', '😂', '❤️', '🎉'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[keyof typeof LIVE_TOPICS];

/** Bigger packets are dropped unread (LiveKit's own reliable packets stay under 15 KiB). */
export const LIVE_MESSAGE_MAX_BYTES = 64 * 1024;
