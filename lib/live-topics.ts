/**
 * The data-channel topics of live updates, declared once for the server that sends them
 * (lib/domain/live-updates.ts) and the call UI that reads them (components/call). No imports:
 * safe in the browser bundle.
 */
export const LIVE_TOPICS = {
  /** { type: 'poll.updated', poll } */
  polls: 'convene.polls',
  /** { type: 'question.updated', question } */
  questions: 'convene.questions',
  /** { type: 'chat.message', message } */
  chat: 'convene.chat',
} as const;
export type LiveTopic = (typeof LIVE_TOPICS)[keyof typeof LIVE_TOPICS];
