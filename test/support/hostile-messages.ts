/**
 * Data-channel messages a hostile participant could publish on Convene's live topics, for the
 * parser's tests (test/ui/live-messages.test.ts) and the three-person call (e2e/hostile-data.spec.ts):
 * the forged packets of issue 33 by name, and a fast-check generator over the message schemas —
 * a well-formed message with one field swapped for a wrong type, null, a huge string or a deep
 * nest, unknown types, raw JSON and non-JSON, and chat claiming other senders' ids.
 */
import fc from 'fast-check';
import { LIVE_TOPICS } from '@/lib/live-topics';

export const T0 = '2026-01-01T10:00:00.000Z';

export const samplePoll = () => ({
  id: 'poll_1',
  roomId: 'room_1',
  question: 'Lunch?',
  status: 'OPEN',
  isAnonymous: false,
  allowMultiple: false,
  totalVotes: 1,
  options: [
    { id: 'o_a', text: 'Salad', order: 0, count: 1 },
    { id: 'o_b', text: 'Pizza', order: 1, count: 0 },
  ],
  createdByExternalId: 'host',
  createdAt: T0,
  openedAt: T0,
  closedAt: null,
});

export const sampleQuestion = () => ({
  id: 'q_1',
  roomId: 'room_1',
  text: 'When is the release?',
  status: 'ANSWERED',
  askerExternalId: 'amy',
  askerName: 'Amy',
  upvoteCount: 2,
  answerText: 'Friday',
  answeredByExternalId: 'host',
  answeredAt: T0,
  dismissedByExternalId: null,
  dismissedAt: null,
  createdAt: T0,
});

export const sampleChat = (over: Record<string, unknown> = {}) => ({
  id: 'msg_1',
  roomId: 'room_1',
  sessionId: null,
  senderParticipantId: 'part_host',
  senderExternalUserId: 'host',
  senderName: 'Hana Host',
  toParticipantId: null,
  toExternalUserId: null,
  text: 'Standup at 10',
  createdAt: T0,
  ...over,
});

/** A well-formed message of each topic, as the server sends it. */
export const wellFormed = () => ({
  [LIVE_TOPICS.polls]: { type: 'poll.updated', poll: samplePoll() },
  [LIVE_TOPICS.questions]: { type: 'question.updated', question: sampleQuestion() },
  [LIVE_TOPICS.chat]: { type: 'chat.message', message: sampleChat() },
  [LIVE_TOPICS.host]: { type: 'host.muted', source: 'microphone', by: 'Hana Host' },
  [LIVE_TOPICS.reactions]: { type: 'reaction', emoji: '👏' },
});

export interface HostilePacket {
  topic: string;
  /** The bytes as text (JSON or not). */
  text: string;
}

// JSON.stringify(undefined) is undefined: such a packet carries the text 'undefined'.
const packet = (topic: string, body: unknown): HostilePacket => ({ topic, text: JSON.stringify(body) ?? 'undefined' });

/**
 * The forged packets of issue 33: each crashed the others' call page or forged chat before.
 * `hostMessage` is a real message of the host's (its id is reused to rewrite it).
 */
export function issue33Packets(
  hostMessage: { id: string; senderParticipantId: string },
  host: { externalUserId: string; displayName: string },
  viewerExternalUserId: string,
): HostilePacket[] {
  const forgedChat = (over: Record<string, unknown>) =>
    packet(LIVE_TOPICS.chat, {
      type: 'chat.message',
      message: sampleChat({
        id: `forged_${Math.random().toString(36).slice(2)}`,
        createdAt: new Date().toISOString(),
        ...over,
      }),
    });
  return [
    packet(LIVE_TOPICS.polls, {
      type: 'poll.updated',
      poll: { id: 'p', question: 'q', options: [null], status: 'OPEN' },
    }),
    packet(LIVE_TOPICS.questions, {
      type: 'question.updated',
      question: { ...sampleQuestion(), answerText: { $$typeof: 'react.element', props: {} } },
    }),
    forgedChat({
      senderExternalUserId: host.externalUserId,
      senderName: host.displayName,
      text: 'FORGED: as the host',
    }),
    forgedChat({ senderExternalUserId: viewerExternalUserId, senderName: 'x', text: 'FORGED: as you' }),
    forgedChat({
      id: hostMessage.id,
      senderParticipantId: hostMessage.senderParticipantId,
      senderExternalUserId: host.externalUserId,
      senderName: host.displayName,
      text: 'REWRITTEN: meeting cancelled',
    }),
  ];
}

/** Values that break a field: wrong types, nulls, huge strings, objects React cannot render, deep nests. */
const hostileValue = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant({}),
  fc.constant([null]),
  fc.constant({ $$typeof: 'react.element', type: 'img', props: { src: 'x' } }),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 5_001, max: 6_000 }).map((n) => 'x'.repeat(n)), // past every field's bound
  fc.constant('2026-13-45T99:99:99Z'),
  fc.integer({ min: 50, max: 2_000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
  fc.anything({ maxDepth: 2 }),
);

/** Every path to a field of a value (objects and arrays walked), the empty path included. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pathsOf(v, [...prefix, i])));
  if (value && typeof value === 'object')
    return here.concat(...Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

const topics = Object.values(LIVE_TOPICS);
const bodies = wellFormed() as Record<string, unknown>;

/** A well-formed message with one field (or the whole) replaced by a hostile value. */
const mutated = fc
  .constantFrom(...topics)
  .chain((topic) =>
    fc
      .tuple(fc.constantFrom(...pathsOf(bodies[topic])), hostileValue)
      .map(([path, value]) => packet(topic, setAt(bodies[topic], path, value))),
  );

/** The right shape, the wrong topic or an unknown type. */
const misdirected = fc.oneof(
  fc
    .tuple(fc.constantFrom(...topics), fc.constantFrom(...topics))
    .map(([topic, other]) => packet(topic, bodies[other])),
  fc
    .tuple(fc.constantFrom(...topics), fc.string({ maxLength: 30 }))
    .map(([topic, type]) => packet(topic, { ...(bodies[topic] as object), type })),
);

/** Chat claiming to be someone else's, or reusing another message's id. */
const impersonating = (ids: { messageIds: string[]; externalUserIds: string[] }) =>
  fc
    .record({
      id: ids.messageIds.length ? fc.constantFrom(...ids.messageIds) : fc.string({ minLength: 1, maxLength: 20 }),
      senderExternalUserId: fc.constantFrom(...ids.externalUserIds),
      text: fc.string({ minLength: 1, maxLength: 40 }).map((s) => `FORGED ${s}`),
    })
    .map((over) =>
      packet(LIVE_TOPICS.chat, {
        type: 'chat.message',
        message: sampleChat({ ...over, senderName: over.senderExternalUserId }),
      }),
    );

const raw = fc.oneof(
  fc.json().map((text) => ({ text })),
  fc.string({ maxLength: 50 }).map((text) => ({ text })),
  // Clients refuse packets over LiveKit's 64 KiB: the parser's own byte cap is for the unit tests.
  fc.integer({ min: 10_000, max: 20_000 }).map((n) => ({ text: `"${'y'.repeat(n)}"` })),
);
const rawPacket = fc.tuple(fc.constantFrom(...topics), raw).map(([topic, { text }]) => ({ topic, text }));

/** The generator over the message schemas; `ids` are real message and user ids to impersonate. */
export function hostilePackets(
  ids: { messageIds: string[]; externalUserIds: string[] } = { messageIds: [], externalUserIds: ['host', 'amy'] },
) {
  return fc.oneof(
    { arbitrary: mutated, weight: 6 },
    { arbitrary: misdirected, weight: 1 },
    { arbitrary: impersonating(ids), weight: 2 },
    { arbitrary: rawPacket, weight: 1 },
  );
}
