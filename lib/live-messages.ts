/**
 * What each live-update topic (lib/live-topics.ts) carries, declared once for the server that
 * sends it (lib/domain/live-updates.ts) and the call UI that reads it: one entry per topic in
 * LIVE_MESSAGES (its schema and who may send it) and one reader, parseLiveMessage.
 *
 * Whatever arrives on the data channel is untrusted input: any participant can publish any bytes
 * on any topic (LiveKit relays them with the sender's identity). So a message is read only when it
 * came from whom its topic allows — server-only topics from the server, which the media layer marks
 * with no participant identity — and it fits its schema, whose strings and lists are bounded.
 * Imports zod's tree-shakable form; the call loads this module with the first packet it reads
 * (components/call/useLiveList.ts; docs/security.md, "In-call data is untrusted").
 */
import * as z from 'zod/mini';
import { CHAT_MAX_LENGTH } from '@/lib/domain/chat-limits';
import { LIVE_MESSAGE_MAX_BYTES, LIVE_TOPICS, type LiveTopic, REACTION_EMOJI } from '@/lib/live-topics';

// Bounds at or above what the API stores, so every real message fits and nothing huge is rendered.
/** A string of at most `max` characters (at least `min`). */
const text = (max: number, min = 0) =>
  min ? z.string().check(z.minLength(min), z.maxLength(max)) : z.string().check(z.maxLength(max));
const id = text(64, 1);
const externalId = text(200, 1);
const name = text(100);
const time = z.iso.datetime();
const count = z.int().check(z.minimum(0), z.maximum(1_000_000_000));

const poll = z.object({
  id,
  roomId: id,
  question: text(500),
  status: z.enum(['DRAFT', 'OPEN', 'CLOSED']),
  isAnonymous: z.boolean(),
  allowMultiple: z.boolean(),
  totalVotes: count,
  options: z
    .array(z.object({ id, text: text(200), order: z.int().check(z.minimum(0), z.maximum(100)), count }))
    .check(z.maxLength(10)),
  createdByExternalId: z.nullable(externalId),
  createdAt: time,
  openedAt: z.nullable(time),
  closedAt: z.nullable(time),
});

const question = z.object({
  id,
  roomId: id,
  text: text(1000),
  status: z.enum(['OPEN', 'ANSWERED', 'DISMISSED']),
  askerExternalId: z.nullable(externalId),
  askerName: z.nullable(name),
  upvoteCount: count,
  answerText: z.nullable(text(5000)),
  answeredByExternalId: z.nullable(externalId),
  answeredAt: z.nullable(time),
  dismissedByExternalId: z.nullable(externalId),
  dismissedAt: z.nullable(time),
  createdAt: time,
});

const chatMessage = z.object({
  id,
  roomId: id,
  sessionId: z.nullable(id),
  senderParticipantId: id,
  senderExternalUserId: externalId,
  senderName: name,
  toParticipantId: z.nullable(id),
  toExternalUserId: z.nullable(externalId),
  text: text(CHAT_MAX_LENGTH),
  createdAt: time,
});

/**
 * Each topic's message and who may send it: 'server' (Convene through the media layer's server
 * API, e.g. SendData) or 'participant' (any peer; the reader attributes it from the packet's
 * sender identity, never from the payload). A new topic is one more entry.
 */
export const LIVE_MESSAGES = {
  [LIVE_TOPICS.polls]: { from: 'server', schema: z.object({ type: z.literal('poll.updated'), poll }) },
  [LIVE_TOPICS.questions]: { from: 'server', schema: z.object({ type: z.literal('question.updated'), question }) },
  // Chat is stored first and relayed by the server: a peer's packet on this topic is never shown.
  [LIVE_TOPICS.chat]: { from: 'server', schema: z.object({ type: z.literal('chat.message'), message: chatMessage }) },
  [LIVE_TOPICS.host]: {
    from: 'server',
    schema: z.object({ type: z.literal('host.muted'), source: z.enum(['microphone', 'camera']), by: name }),
  },
  [LIVE_TOPICS.captions]: {
    from: 'server',
    schema: z.object({
      type: z.literal('captions.state'),
      active: z.boolean(),
      /** The one sender whose transcriptions the page shows (lib/domain/captions-agent.ts). */
      agentIdentity: z.nullable(text(128, 1)),
    }),
  },
  [LIVE_TOPICS.reactions]: {
    from: 'participant',
    schema: z.object({ type: z.literal('reaction'), emoji: z.enum(REACTION_EMOJI) }),
  },
} as const satisfies Record<LiveTopic, { from: 'server' | 'participant'; schema: z.ZodMiniType }>;

export type LiveMessageBody<T extends LiveTopic> = z.output<(typeof LIVE_MESSAGES)[T]['schema']>;
/** What the writer may send on a topic. */
export type LiveMessageInput<T extends LiveTopic> = z.input<(typeof LIVE_MESSAGES)[T]['schema']>;

export interface LiveMessage<T extends LiveTopic = LiveTopic> {
  topic: T;
  /** The packet's sender as the media layer stamped it; null when the server sent it. */
  sender: string | null;
  body: LiveMessageBody<T>;
}

export const isLiveTopic = (topic: unknown): topic is LiveTopic =>
  typeof topic === 'string' && Object.hasOwn(LIVE_MESSAGES, topic);

/**
 * Reads one data packet: its topic, its bytes and the sender identity the media layer stamped on
 * it ('' or undefined when the server sent it: LiveKit's DataPacket.participantIdentity). Null for
 * anything not to be believed — an unknown topic, a sender the topic does not allow, bytes over
 * LIVE_MESSAGE_MAX_BYTES, text that is not UTF-8 JSON, or a body its schema refuses. Never throws.
 */
export function parseLiveMessage<T extends LiveTopic>(
  topic: T | string | undefined,
  bytes: Uint8Array,
  senderIdentity: string | undefined,
): LiveMessage<T> | null {
  if (!isLiveTopic(topic)) return null;
  const sender = senderIdentity || null;
  const entry: { from: 'server' | 'participant'; schema: z.ZodMiniType } = LIVE_MESSAGES[topic];
  if (entry.from === 'server' ? sender !== null : sender === null) return null;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength > LIVE_MESSAGE_MAX_BYTES) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null; // not UTF-8, not JSON, or nested deeper than the parser's stack
  }
  const read = entry.schema.safeParse(json);
  return read.success ? { topic: topic as T, sender, body: read.data as LiveMessageBody<T> } : null;
}
