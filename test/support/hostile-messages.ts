/**
 * Data-channel messages a hostile participant could publish on Convene's live topics, for the
 * parser's tests (test/ui/live-messages.test.ts) and the three-person call (e2e/hostile-data.spec.ts):
 * the forged packets of issue 33 by name, and a fast-check generator over the message schemas —
 * a well-formed message with one field swapped for a wrong type, null, a huge string or a deep
 * nest, unknown types, raw JSON and non-JSON, and chat claiming other senders' ids. And what a
 * hostile client puts in v1 signaling's join request (the media server's tests, issue 46).
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import {
  AddTrackRequest,
  JoinRequest,
  SessionDescription,
  TrackSource,
  TrackType,
  VideoLayer,
  WrappedJoinRequest,
  WrappedJoinRequest_Compression,
} from '@livekit/protocol';
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

/**
 * v1 signaling's `join_request` query value: a WrappedJoinRequest around `joinRequest` (the bytes
 * of a JoinRequest, or any bytes), gzip'd when asked, as livekit-client sends it.
 */
export function joinRequestParam(joinRequest: Uint8Array, gzip: boolean) {
  return Buffer.from(
    new WrappedJoinRequest({
      compression: gzip ? WrappedJoinRequest_Compression.GZIP : WrappedJoinRequest_Compression.NONE,
      joinRequest: gzip ? gzipSync(joinRequest, { level: 9 }) : joinRequest,
    }).toBinary(),
  ).toString('base64url');
}

/**
 * `count` empty add-track requests as a JoinRequest's wire bytes (field 5, length 0: two bytes
 * each). Gzip'd, 500,000 of them fit a 1.3 KB URL: issue 46's stranger.
 */
export const emptyAddTrackRequests = (count: number) => Buffer.alloc(2 * count, Buffer.from([0x2a, 0x00]));

/** A field number JoinRequest does not have (field 11, varint 0), repeated: kept as unknown fields. */
const unknownFields = (count: number) => Buffer.alloc(2 * count, Buffer.from([0x58, 0x00]));

/** What a hostile join request is made of: each part from a count or a size, hostile or not. */
export interface HostileJoinRequestShape {
  /** Real add-track requests, and the byte length of each one's name. */
  tracks: { count: number; nameBytes: number };
  /** Empty add-track requests appended on the wire. */
  emptyTracks: number;
  /** Layers of each real add-track request (a repeated message). */
  layersPerTrack: number;
  /** Packed audio features of the first add-track request (one byte each). */
  packedFeatures: number;
  sdpBytes: number;
  attributes: { count: number; valueBytes: number };
  metadataBytes: number;
  unknownFields: number;
  gzip: boolean;
  /** Bytes cut off the end of the JoinRequest (malformed wire), 0 for none. */
  truncate: number;
}

/** The JoinRequest's bytes for a shape. */
export function hostileJoinRequestBytes(shape: HostileJoinRequestShape) {
  const tracks = Array.from(
    { length: shape.tracks.count },
    (_, i) =>
      new AddTrackRequest({
        cid: `cid-${i}`,
        name: 'n'.repeat(shape.tracks.nameBytes),
        type: i % 2 ? TrackType.VIDEO : TrackType.AUDIO,
        source: i % 2 ? TrackSource.CAMERA : TrackSource.MICROPHONE,
        layers: Array.from({ length: shape.layersPerTrack }, () => new VideoLayer({ width: 1, height: 1 })),
        audioFeatures: i === 0 ? Array.from({ length: shape.packedFeatures }, () => 1) : [],
      }),
  );
  const join = new JoinRequest({
    addTrackRequests: tracks,
    metadata: 'm'.repeat(shape.metadataBytes),
    participantAttributes: Object.fromEntries(
      Array.from({ length: shape.attributes.count }, (_, i) => [`k${i}`, 'v'.repeat(shape.attributes.valueBytes)]),
    ),
    publisherOffer: new SessionDescription({
      type: 'offer',
      sdp: 'a=x\r\n'.repeat(Math.ceil(shape.sdpBytes / 5)),
      id: 1,
    }),
  });
  const bytes = Buffer.concat([
    join.toBinary(),
    emptyAddTrackRequests(shape.emptyTracks),
    unknownFields(shape.unknownFields),
  ]);
  return shape.truncate ? bytes.subarray(0, Math.max(0, bytes.length - shape.truncate)) : bytes;
}

/**
 * Counts and sizes mostly harmless, else at or far past a bound (each edge ±2): most requests
 * cross one bound at most, so some pass whole.
 */
const around = (...edges: number[]) =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 4 }), weight: 8 },
    ...edges.map((edge) => ({ arbitrary: fc.integer({ min: Math.max(0, edge - 2), max: edge + 2 }), weight: 1 })),
  );

/**
 * fast-check: hostile join requests over sizes, counts and compression. Large parts come one at a
 * time (many tracks or long names, many attributes or long values), so building one stays cheap.
 */
export const hostileJoinRequestShapes: fc.Arbitrary<HostileJoinRequestShape> = fc
  .record({
    tracks: fc.oneof(
      fc.record({ count: around(32, 200), nameBytes: around(256) }),
      fc.record({ count: fc.integer({ min: 1, max: 3 }), nameBytes: around(256, 65_536) }),
    ),
    emptyTracks: fc.oneof(
      { arbitrary: around(32, 4096), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 600_000 }), weight: 1 },
    ),
    layersPerTrack: around(128, 2000),
    packedFeatures: around(4096, 100_000),
    sdpBytes: fc.oneof(fc.integer({ min: 0, max: 2_000 }), around(256 * 1024)),
    attributes: fc.oneof(
      fc.record({ count: around(128, 5000), valueBytes: fc.integer({ min: 0, max: 16 }) }),
      fc.record({ count: fc.integer({ min: 1, max: 3 }), valueBytes: around(64 * 1024) }),
    ),
    metadataBytes: around(512 * 1024),
    unknownFields: fc.oneof(
      { arbitrary: around(4096), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 200_000 }), weight: 1 },
    ),
    // livekit-client gzips whenever it can; a large request sent plain is refused for its URL alone.
    gzip: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
    truncate: fc.oneof(
      { arbitrary: fc.constant(0), weight: 4 },
      { arbitrary: fc.integer({ min: 1, max: 10 }), weight: 1 },
    ),
  })
  // Many layers on a few tracks only: a request stays cheap to build.
  .map((shape) => (shape.tracks.count > 3 ? { ...shape, layersPerTrack: Math.min(shape.layersPerTrack, 4) } : shape));

/** What a hostile WHIP offer is made of. */
export interface HostileWhipShape {
  sections: number;
  bundle: boolean;
  /** Lines of filler in each section (a large body without more sections). */
  fillerLines: number;
  contentType: string;
  /** Sent as this many random bytes instead of an SDP, when set. */
  garbageBytes?: number;
}

/** The body of a WHIP POST for a shape: sendonly video sections, bundled or each on its own transport. */
export function hostileWhipBody(shape: HostileWhipShape): string | Uint8Array<ArrayBuffer> {
  if (shape.garbageBytes !== undefined) return new Uint8Array(shape.garbageBytes).map((_, i) => (i * 131) % 256);
  const ids = Array.from({ length: shape.sections }, (_, i) => String(i));
  const head = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0'];
  if (shape.bundle) head.push(`a=group:BUNDLE ${ids.join(' ')}`);
  const fingerprint = Array.from({ length: 32 }, () => 'AB').join(':');
  const section = (mid: string) => [
    'm=video 9 UDP/TLS/RTP/SAVPF 96',
    'c=IN IP4 0.0.0.0',
    `a=mid:${mid}`,
    'a=sendonly',
    'a=rtcp-mux',
    'a=rtpmap:96 VP8/90000',
    `a=ice-ufrag:u${mid}`,
    'a=ice-pwd:0123456789abcdefghijklmnop',
    `a=fingerprint:sha-256 ${fingerprint}`,
    'a=setup:actpass',
    `a=ssrc:${1000 + Number(mid)} cname:x`,
    ...Array.from({ length: shape.fillerLines }, (_, i) => `a=x-filler:${i}`),
  ];
  return `${[...head, ...ids.flatMap(section)].join('\r\n')}\r\n`;
}

/** fast-check: WHIP offers over section counts, bundling, body sizes and content types. */
export const hostileWhipShapes: fc.Arbitrary<HostileWhipShape> = fc.oneof(
  {
    arbitrary: fc
      .record({
        sections: around(32, 300, 1000),
        bundle: fc.boolean(),
        fillerLines: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1500 })),
        contentType: fc.constantFrom('application/sdp', 'application/sdp; charset=utf-8', 'text/plain', ''),
      })
      // Long sections few at a time: a body stays under a megabyte (past the server's bound still).
      .map((shape) => (shape.sections > 40 ? { ...shape, fillerLines: Math.min(shape.fillerLines, 20) } : shape)),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      sections: fc.constant(0),
      bundle: fc.constant(false),
      fillerLines: fc.constant(0),
      contentType: fc.constantFrom('application/sdp', 'application/octet-stream'),
      garbageBytes: fc.integer({ min: 0, max: 400_000 }),
    }),
    weight: 1,
  },
);
