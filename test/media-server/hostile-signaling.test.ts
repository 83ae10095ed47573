/**
 * Issue 46's attacks on the media server's signaling (items 1, 2 and 12), each tried as an attacker
 * would against the development media server in its own process, while a bystander in another room
 * (test/support/bystander.ts) publishes, listens and pings: the bystander stays connected, keeps
 * hearing media, and every ping comes back within 250 ms, during the attack and after; the server's
 * memory and log grow by little.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MediaStream, MediaStreamTrack, RTCPeerConnection } from 'werift';
import {
  AddTrackRequest,
  ClientInfo,
  ClientInfo_SDK,
  JoinRequest,
  MuteTrackRequest,
  Ping,
  RequestResponse_Reason,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  TrackSource,
  TrackType,
  UpdateParticipantMetadata,
} from '@livekit/protocol';
import type { VideoGrant } from 'livekit-server-sdk';
import { JOIN_REQUEST_LIMITS } from '@/media-server/rtc/join-request';
import { PARTICIPANT_LIMITS } from '@/media-server/rtc/room-state';
import { SESSION_LIMITS } from '@/media-server/rtc/limits';
import { BYSTANDER_PING_MS, type Bystander, startBystander } from '../support/bystander';
import { emptyAddTrackRequests, joinRequestParam } from '../support/hostile-messages';
import { type MediaServerProcess, spawnMediaServer } from '../support/media-server-process';
import { mediaToken } from '../support/rtc-node-media';
import { until } from '../support/until';
import { v1Client } from '../support/v1-client';

let media: MediaServerProcess;
let bystander: Bystander;

const token = (room: string, identity: string, grant: Partial<VideoGrant> = {}) =>
  mediaToken(media, room, identity, { grant });
const VIEWER: Partial<VideoGrant> = { canPublish: false, canPublishData: true, canSubscribe: true };

beforeAll(async () => {
  media = await spawnMediaServer({
    apiKey: 'hostile_signal_key',
    apiSecret: 'hostile-signaling-test-secret-0123456789',
  });
  bystander = await startBystander(media);
}, 60_000);

afterAll(async () => {
  await bystander?.stop();
  await media?.stop();
});

beforeEach(() => bystander.reset());

/** The bystander noticed nothing: connected, media still arriving, prompt pongs, bounded growth. */
async function expectBystanderUnharmed(bounds = { rssMiB: 60, logBytes: 20_000 }) {
  const seen = await bystander.check();
  expect(media.exited, media.output.slice(-2000)).toBeUndefined();
  expect(seen.connected).toBe(true);
  expect(seen.audioFrames).toBeGreaterThan(0);
  expect(seen.pongs).toBeGreaterThan(0);
  expect(seen.worstPingMs, JSON.stringify(seen)).toBeLessThan(BYSTANDER_PING_MS);
  expect(seen.rssGrowthMiB).toBeLessThan(bounds.rssMiB);
  expect(seen.logGrowthBytes).toBeLessThan(bounds.logBytes);
  return seen;
}

/** Opens /rtc/v1 (or another path) and says how the upgrade was answered: 101, or the refusal's status and text. */
function upgrade(path: string, query: Record<string, string>) {
  const startedAt = performance.now();
  const ws = new WebSocket(`${media.url}${path}?${new URLSearchParams(query)}`);
  const messages: SignalResponse['message'][] = [];
  ws.on('message', (data: Buffer) => messages.push(SignalResponse.fromBinary(new Uint8Array(data)).message));
  type Answer = { status: number; text: string; ms: number; ws: WebSocket; messages: typeof messages };
  return new Promise<Answer>((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - startedAt, ws, messages }),
      );
    });
    ws.on('open', () => resolve({ status: 101, text: '', ms: performance.now() - startedAt, ws, messages }));
    ws.on('error', reject);
  });
}

/** A raw v0 signaling client (protobuf over the WebSocket) that has its join response. */
async function signalClient(room: string, identity: string, grant: Partial<VideoGrant> = {}) {
  const ws = new WebSocket(`${media.url}/rtc?access_token=${await token(room, identity, grant)}`);
  const client = {
    ws,
    messages: [] as SignalResponse['message'][],
    bytesReceived: 0,
    closed: undefined as { code: number; reason: string } | undefined,
    send: (message: SignalRequest['message']) => ws.send(new SignalRequest({ message }).toBinary()),
    /** Everything it was sent before now has been handled: a ping's answer came back. */
    async settled() {
      const id = BigInt(Date.now());
      client.send({ case: 'pingReq', value: new Ping({ timestamp: id }) });
      await until(
        () => client.messages.find((m) => m.case === 'pongResp' && m.value.lastPingTimestamp === id),
        `${identity}'s pong`,
      );
    },
  };
  ws.on('message', (data: Buffer) => {
    client.bytesReceived += data.length;
    client.messages.push(SignalResponse.fromBinary(new Uint8Array(data)).message);
  });
  ws.on('close', (code, reason) => (client.closed = { code, reason: reason.toString() }));
  ws.on('error', () => undefined);
  await until(() => client.messages.find((m) => m.case === 'join'), `${identity}'s join response`, 5000);
  return client;
}

// Item 1: the stranger's URL. Before the fix the join request was decoded before the token was
// read: five of these took 6.1 s of the server's one thread.
it("refuses a stranger's 1.3 KB URL of 500,000 add-track requests in milliseconds (401), token first", async () => {
  const bomb = joinRequestParam(emptyAddTrackRequests(500_000), true);
  expect(bomb.length).toBeLessThan(1400);
  const badToken = await mediaToken(
    { apiKey: media.apiKey, apiSecret: 'not-the-secret-of-this-server-0123456' },
    'r',
    'x',
  );
  let slowest = 0;
  for (let i = 0; i < 5; i++) {
    const answer = await upgrade('/rtc/v1', { access_token: badToken, join_request: bomb });
    expect(answer.status).toBe(401);
    expect(answer.ms).toBeLessThan(100);
    slowest = Math.max(slowest, answer.ms);
  }
  console.log(
    `item 1: five bad-token upgrades of ${bomb.length} characters, the slowest refused in ${Math.round(slowest)} ms`,
  );
  // Its validate path as well: the token first, then (a good token) the join request's bounds.
  const validate = async (jwt: string, param: string) => {
    const res = await fetch(`http://127.0.0.1:${media.port}/rtc/v1/validate?access_token=${jwt}&join_request=${param}`);
    return { status: res.status, text: await res.text() };
  };
  expect((await validate(badToken, bomb)).status).toBe(401);
  expect(await validate(await token('r', 'x'), bomb)).toEqual({
    status: 400,
    text: `join_request inflates past ${JOIN_REQUEST_LIMITS.joinRequestBytes} bytes`,
  });
  await expectBystanderUnharmed();
});

it('bounds what a good token may make the server decode: inflated size, fields, each repeated field (400)', async () => {
  const jwt = await token('decoders', 'dora');
  const cases: [Uint8Array, boolean, string][] = [
    // Inside the inflated bound, still 120,000 add-track requests: counted on the wire, never built.
    [
      emptyAddTrackRequests(120_000),
      true,
      `over ${SESSION_LIMITS.tracksPerParticipant} livekit.JoinRequest.add_track_requests`,
    ],
    [emptyAddTrackRequests(SESSION_LIMITS.tracksPerParticipant + 1), false, 'add_track_requests entries'],
    [emptyAddTrackRequests(500_000), true, 'inflates past'],
    // Unknown fields are kept by the decoder, one object each.
    [Buffer.alloc(40_000, Buffer.from([0x58, 0x00])), true, `over ${JOIN_REQUEST_LIMITS.fields} fields`],
    [
      new JoinRequest({
        participantAttributes: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 'v'])),
      }).toBinary(),
      true,
      'livekit.JoinRequest.participant_attributes entries',
    ],
  ];
  for (const [bytes, gzip, reason] of cases) {
    const answer = await upgrade('/rtc/v1', { access_token: jwt, join_request: joinRequestParam(bytes, gzip) });
    expect(answer.status, reason).toBe(400);
    expect(answer.text).toContain(reason);
    // A few milliseconds on a quiet machine (inflating at most 256 KiB, walking the wire): never
    // longer than a bystander's ping may take.
    expect(answer.ms).toBeLessThan(BYSTANDER_PING_MS);
  }
  await expectBystanderUnharmed();
});

// Item 2: a VIEWER's join request. Before the fix its add-track requests were applied in one loop,
// outside the signal budget, each refusal a log line: one connection froze every room for seconds.
it("a VIEWER's join request of add-track requests: refused each, within the signal budget, logged once with a count", async () => {
  const viewerJoin = (count: number) =>
    joinRequestParam(
      new JoinRequest({
        addTrackRequests: Array.from(
          { length: count },
          () => new AddTrackRequest({ cid: 'c', name: 'cam', type: TrackType.VIDEO, source: TrackSource.CAMERA }),
        ),
      }).toBinary(),
      true,
    );
  // Far more than a participant may publish: refused whole, before any session.
  const flood = await upgrade('/rtc/v1', {
    access_token: await token('viewers', 'vic', VIEWER),
    join_request: viewerJoin(10_000),
  });
  expect(flood.status).toBe(400);
  expect(flood.text).toContain('add_track_requests');
  expect(flood.ms).toBeLessThan(BYSTANDER_PING_MS);

  // As many as may be asked: each refused (NOT_ALLOWED), the session kept, the refusals one log line.
  const logBefore = media.output.length;
  const answer = await upgrade('/rtc/v1', {
    access_token: await token('viewers', 'val', VIEWER),
    join_request: viewerJoin(SESSION_LIMITS.tracksPerParticipant),
  });
  expect(answer.status).toBe(101);
  const refusals = () =>
    answer.messages.filter(
      (m) => m.case === 'requestResponse' && m.value.reason === RequestResponse_Reason.NOT_ALLOWED,
    );
  await until(() => (refusals().length === SESSION_LIMITS.tracksPerParticipant ? true : undefined), 'every refusal');
  await new Promise((r) => setTimeout(r, 1200)); // the interval's count is written
  const lines = media.output
    .slice(logBefore)
    .split('\n')
    .filter((line) => line.includes('val@viewers'));
  expect(lines).toEqual([
    '[media] val@viewers: refused signal requests (1 addTrack: may not publish CAMERA)',
    `[media] val@viewers: refused signal requests (${SESSION_LIMITS.tracksPerParticipant - 1} addTrack: may not publish CAMERA)`,
  ]);
  answer.ws.close();
  await expectBystanderUnharmed();
});

it("a join request's add-track requests spend the connection's signal budget as the messages they stand for", async () => {
  const join = (identity: string, tracks: number) =>
    joinRequestParam(
      new JoinRequest({
        clientInfo: new ClientInfo({ sdk: ClientInfo_SDK.JS, protocol: 16 }),
        addTrackRequests: Array.from(
          { length: tracks },
          (_, i) => new AddTrackRequest({ cid: `c${i}`, type: TrackType.AUDIO, source: TrackSource.MICROPHONE }),
        ),
      }).toBinary(),
      false,
    );
  // Pings up to just under the burst: with the join request's 32 on top, over it.
  const burstOfPings = async (identity: string, tracks: number) => {
    const answer = await upgrade('/rtc/v1', {
      access_token: await token('budget', identity),
      join_request: join(identity, tracks),
    });
    let closed: { code: number; reason: string } | undefined;
    answer.ws.on('close', (code, reason) => (closed = { code, reason: reason.toString() }));
    for (let i = 0; i < SESSION_LIMITS.signalBurst - 10; i++)
      answer.ws.send(new SignalRequest({ message: { case: 'ping', value: BigInt(i) } }).toBinary());
    await new Promise((r) => setTimeout(r, 500));
    answer.ws.close();
    return closed;
  };
  expect(await burstOfPings('calm', 0)).toBeUndefined(); // control: the pings alone fit
  expect(await burstOfPings('greedy', SESSION_LIMITS.tracksPerParticipant)).toEqual({
    code: 1008,
    reason: expect.stringContaining('signal messages per second'),
  });
  await expectBystanderUnharmed();
});

// An SDP is parsed in one go: 20 offers of 250 KiB sent at once once held the process for seconds.
it("bounds an attendee's SDP in size and in bytes per second: renegotiation floods close that connection only", async () => {
  const junkOffer = (bytes: number) =>
    new SessionDescription({
      type: 'offer',
      sdp: `v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n${'a=x\r\n'.repeat(Math.ceil(bytes / 5))}`,
      id: 1,
    });
  const oversized = await signalClient('sdp', 'olga');
  oversized.send({ case: 'offer', value: junkOffer(SESSION_LIMITS.sdpBytes + 100) });
  await until(() => oversized.closed, 'the oversized offer refused');
  expect(oversized.closed).toEqual({
    code: 1008,
    reason: expect.stringContaining(`at most ${SESSION_LIMITS.sdpBytes}`),
  });

  const flooder = await signalClient('sdp', 'fred');
  for (let i = 0; i < 20; i++) flooder.send({ case: 'offer', value: junkOffer(SESSION_LIMITS.sdpBytes - 1000) });
  await until(() => flooder.closed, 'the renegotiation flood refused');
  expect(flooder.closed).toEqual({ code: 1008, reason: expect.stringContaining('bytes of SDP per second') });
  await expectBystanderUnharmed();
});

// Item 12: names, metadata, and how often they are sent. Before the fix an ATTENDEE's 2 MB (32
// tracks named 64 KB each, 60 mute toggles) reached one other participant as 153 MB.
it("bounds an ATTENDEE's track names and coalesces its updates: a victim in the room receives kilobytes, not 150 MB", async () => {
  const victim = await signalClient('names', 'vera');
  // The attacker publishes for real (v1, werift): a track is listed to others once its section is offered.
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  pc.createDataChannel('_reliable');
  const attacker = await v1Client({ url: media.url, token: await token('names', 'mal'), pc });
  const attackerBytes = { received: 0 };
  const responses = () => attacker.messages.flatMap((m) => (m.case === 'requestResponse' ? [m.value] : []));
  const settled = async (what: string) => {
    const id = BigInt(Date.now());
    attacker.send({ case: 'pingReq', value: new Ping({ timestamp: id }) });
    await until(() => attacker.messages.find((m) => m.case === 'pongResp' && m.value.lastPingTimestamp === id), what);
  };
  const addTracks = (nameBytes: number) => {
    for (let i = 0; i < SESSION_LIMITS.tracksPerParticipant; i++) {
      const request = new AddTrackRequest({
        cid: `t${i}`,
        name: 'n'.repeat(nameBytes),
        type: TrackType.AUDIO,
        source: TrackSource.MICROPHONE,
      });
      attackerBytes.received += request.toBinary().length;
      attacker.send({ case: 'addTrack', value: request });
    }
  };
  const receivedBefore = victim.bytesReceived;

  // 64 KB names (2 MB in all): each refused, its text not sent back.
  addTracks(64 * 1024);
  await settled('the long names handled');
  expect(responses().filter((r) => r.reason === RequestResponse_Reason.INVALID_NAME)).toHaveLength(
    SESSION_LIMITS.tracksPerParticipant,
  );
  expect(responses().every((r) => (r.request.value?.toBinary().length ?? 0) < 1000)).toBe(true);

  // The longest names allowed, their sections offered, then 60 mute toggles.
  addTracks(PARTICIPANT_LIMITS.trackNameBytes);
  await until(
    () => (attacker.count('trackPublished') === SESSION_LIMITS.tracksPerParticipant ? true : undefined),
    'every track announced',
  );
  for (let i = 0; i < SESSION_LIMITS.tracksPerParticipant; i++) {
    const transceiver = pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), {
      direction: 'sendonly',
      streams: [new MediaStream({ id: 'mal' })],
    });
    (transceiver.sender as { trackId: string }).trackId = `t${i}`;
  }
  await attacker.offer(2);
  const sids = attacker.messages.flatMap((m) => (m.case === 'trackPublished' ? [m.value.track!.sid] : []));
  const lastSeen = () =>
    victim.messages
      .flatMap((m) => (m.case === 'update' ? m.value.participants.filter((p) => p.identity === 'mal') : []))
      .at(-1);
  await until(
    () => (lastSeen()?.tracks.length === SESSION_LIMITS.tracksPerParticipant ? true : undefined),
    "the victim sees the attacker's tracks",
  );
  for (let toggle = 0; toggle < 60; toggle++)
    attacker.send({
      case: 'mute',
      value: new MuteTrackRequest({ sid: sids[toggle % sids.length], muted: toggle % 4 < 2 }),
    });
  await settled('the toggles handled');
  // The victim ends up with the latest state (a coalesced update), in kilobytes.
  await until(
    () => (lastSeen()?.tracks.filter((t) => t.muted).length === 16 ? true : undefined),
    "the victim sees the attacker's last mute state",
  );
  const received = victim.bytesReceived - receivedBefore;
  expect(received).toBeLessThan(300_000);
  console.log(
    `item 12: the attacker sent ${Math.round(attackerBytes.received / 1024)} KiB of add-track requests and 60 mute toggles; ` +
      `the victim received ${Math.round(received / 1024)} KiB in ${victim.messages.filter((m) => m.case === 'update').length} updates`,
  );

  victim.ws.close();
  await attacker.close();
  await expectBystanderUnharmed();
});

it('bounds participant name, metadata and attributes as LiveKit does, and sends no update when nothing changed', async () => {
  const victim = await signalClient('metadata', 'vic');
  const meta = await signalClient('metadata', 'meg', { canUpdateOwnMetadata: true });
  const update = async (requestId: number, over: Partial<UpdateParticipantMetadata>) => {
    meta.send({ case: 'updateMetadata', value: new UpdateParticipantMetadata({ requestId, ...over }) });
    return until(
      () =>
        meta.messages.find((m) => m.case === 'requestResponse' && m.value.requestId === requestId)?.value as
          | { reason: RequestResponse_Reason; message: string }
          | undefined,
      `the answer to request ${requestId}`,
    );
  };
  const victimUpdates = () => victim.messages.filter((m) => m.case === 'update').length;
  const before = victimUpdates();
  expect(await update(1, { name: 'n'.repeat(PARTICIPANT_LIMITS.nameBytes + 1) })).toMatchObject({
    reason: RequestResponse_Reason.LIMIT_EXCEEDED,
    message: 'exceeds name length limit',
  });
  expect(await update(2, { metadata: 'm'.repeat(PARTICIPANT_LIMITS.metadataBytes + 1) })).toMatchObject({
    reason: RequestResponse_Reason.LIMIT_EXCEEDED,
    message: 'exceeds metadata size limit',
  });
  expect(await update(3, { attributes: { big: 'a'.repeat(PARTICIPANT_LIMITS.attributesBytes) } })).toMatchObject({
    reason: RequestResponse_Reason.LIMIT_EXCEEDED,
    message: 'exceeds attributes size limit',
  });
  await victim.settled();
  expect(victimUpdates()).toBe(before);

  expect(await update(4, { name: 'Meg', metadata: '{"hand":true}', attributes: { seat: '4' } })).toMatchObject({
    reason: RequestResponse_Reason.OK,
  });
  await until(() => (victimUpdates() === before + 1 ? true : undefined), "the victim told of meg's change");
  // The same again: answered, nobody told.
  expect(await update(5, { name: 'Meg', metadata: '{"hand":true}', attributes: { seat: '4' } })).toMatchObject({
    reason: RequestResponse_Reason.OK,
  });
  await new Promise((r) => setTimeout(r, 300));
  expect(victimUpdates()).toBe(before + 1);

  victim.ws.close();
  meta.ws.close();
  await expectBystanderUnharmed();
});
