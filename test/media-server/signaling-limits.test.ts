/**
 * Per-connection limits and grants in the signaling session: a client that floods requests,
 * offers a thousand media sections, or asks for media its token does not allow loses only its
 * own connection (closed with the reason) or gets nothing; a data flood loses only its excess
 * packets. After each attack a bystander in another room is still connected and answered promptly
 * (a frozen event loop would show as a slow pong). Raw WebSocket clients speak LiveKit's protobuf
 * signal protocol.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { VideoGrant } from 'livekit-server-sdk';
import {
  AddTrackRequest,
  Ping,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  TrackSource,
  TrackType,
  UpdateSubscription,
} from '@livekit/protocol';
import { AudioSource, LocalAudioTrack, Room, TrackPublishOptions, TrackSource as RtcSource } from '@livekit/rtc-node';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { SESSION_LIMITS } from '@/media-server/rtc/limits';
import type { SignalSession } from '@/media-server/rtc/session';
import { mediaToken } from '../support/rtc-node-media';
import { until } from '../support/until';

let media: DevMediaServer;
let bystander: Client;
const serverLog: string[] = [];

const token = (room: string, identity: string, grant: Partial<VideoGrant> = {}) =>
  mediaToken(media, room, identity, { grant });

interface Client {
  ws: WebSocket;
  messages: SignalResponse[];
  closed?: { code: number; reason: string };
  send(message: SignalRequest['message']): void;
}

/** A v0 signaling client that has received its join response. */
async function connect(room: string, identity: string, grant: Partial<VideoGrant> = {}): Promise<Client> {
  const ws = new WebSocket(`${media.url}/rtc?access_token=${await token(room, identity, grant)}`);
  const client: Client = {
    ws,
    messages: [],
    send: (message) => ws.readyState === ws.OPEN && ws.send(new SignalRequest({ message }).toBinary()),
  };
  ws.on('message', (data) => client.messages.push(SignalResponse.fromBinary(new Uint8Array(data as Buffer))));
  ws.on('close', (code, reason) => (client.closed = { code, reason: reason.toString() }));
  ws.on('error', () => undefined);
  await until(() => client.messages.find((m) => m.message.case === 'join'), `${identity}'s join response`, 5000);
  return client;
}

/** The bystander is connected and a ping round trip takes well under a second. */
async function expectBystanderUnaffected() {
  expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
  const sentAt = Date.now();
  bystander.send({ case: 'pingReq', value: new Ping({ timestamp: BigInt(sentAt) }) });
  await until(
    () =>
      bystander.messages.find(
        (m) => m.message.case === 'pongResp' && m.message.value.lastPingTimestamp === BigInt(sentAt),
      ),
    'the bystander pong',
    5000,
  );
  expect(Date.now() - sentAt).toBeLessThan(500);
}

beforeAll(async () => {
  media = await startDevMediaServer({ departureTimeoutMs: 1000, log: (msg) => serverLog.push(msg) });
  bystander = await connect('bystanders', 'ada');
});

afterAll(async () => {
  bystander?.ws.close();
  await media?.close();
});

it('closes a connection flooding 2,000 AddTrackRequests, with the reason, after at most the track cap', async () => {
  const flooder = await connect('floods', 'mallory');
  for (let i = 0; i < 2000; i++)
    flooder.send({
      case: 'addTrack',
      value: new AddTrackRequest({ cid: `fake-${i}`, type: TrackType.AUDIO, source: TrackSource.MICROPHONE }),
    });
  await until(() => flooder.closed, 'the flooder closed', 5000);
  expect(flooder.closed).toEqual({ code: 1008, reason: expect.stringContaining('signal messages per second') });
  expect(flooder.messages.some((m) => m.message.case === 'leave')).toBe(true);
  const published = flooder.messages.filter((m) => m.message.case === 'trackPublished').length;
  expect(published).toBe(SESSION_LIMITS.tracksPerParticipant);
  expect(media.rooms.get('floods')?.participants.has('mallory') ?? false).toBe(false);
  await expectBystanderUnaffected();
});

it('refuses more published tracks than the cap, at a polite pace, without closing', async () => {
  const hoarder = await connect('hoards', 'hal');
  for (let i = 0; i < SESSION_LIMITS.tracksPerParticipant + 3; i++)
    hoarder.send({
      case: 'addTrack',
      value: new AddTrackRequest({ cid: `t-${i}`, type: TrackType.VIDEO, source: TrackSource.CAMERA }),
    });
  const refusals = () =>
    hoarder.messages.filter((m) => m.message.case === 'requestResponse' && m.message.value.message.includes('at most'));
  await until(() => (refusals().length === 3 ? true : undefined), 'three refusals', 5000);
  expect(media.rooms.get('hoards')!.participants.get('hal')!.tracks.size).toBe(SESSION_LIMITS.tracksPerParticipant);
  expect(hoarder.closed).toBeUndefined();
  hoarder.ws.close();
  await expectBystanderUnaffected();
});

it('closes a connection offering 1,000 media sections, with the reason', async () => {
  const offerer = await connect('offers', 'oscar');
  const section = (i: number) =>
    `m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=mid:${i}\r\na=sendonly\r\na=rtpmap:111 opus/48000/2\r\n`;
  const sdp = `v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=ice-ufrag:abcd\r\na=ice-pwd:abcdefghijklmnopqrstuvwx\r\na=fingerprint:sha-256 ${'AB:'.repeat(31)}AB\r\na=setup:actpass\r\n${Array.from({ length: 1000 }, (_, i) => section(i)).join('')}`;
  const startedAt = Date.now();
  offerer.send({ case: 'offer', value: new SessionDescription({ type: 'offer', sdp, id: 1 }) });
  await until(() => offerer.closed, 'the offerer closed', 5000);
  expect(Date.now() - startedAt).toBeLessThan(1000);
  expect(offerer.closed).toEqual({ code: 1008, reason: expect.stringContaining('1000 media sections') });
  await expectBystanderUnaffected();
});

it('gives a token without canSubscribe no media, even when it asks for a track', async () => {
  // A real publisher (rtc-node) so the track has media to forward.
  const publisher = new Room();
  await publisher.connect(media.url, await token('grants', 'pat'), { autoSubscribe: false, dynacast: false });
  const source = new AudioSource(48000, 1);
  await publisher.localParticipant!.publishTrack(
    LocalAudioTrack.createAudioTrack('mic', source),
    new TrackPublishOptions({ source: RtcSource.SOURCE_MICROPHONE }),
  );
  const trackSid = await until(
    () => [...(media.rooms.get('grants')?.participants.get('pat')?.tracks.values() ?? [])].find((t) => t.media)?.sid,
    'the published track with media',
    10_000,
  );
  const offersFor = (client: Client) =>
    client.messages.filter(
      (m) => m.message.case === 'offer' && Object.values(m.message.value.midToTrackId).includes(trackSid),
    );

  // Control: an allowed subscriber is offered the track (so the refusal below is not vacuous).
  const allowed = await connect('grants', 'sam');
  await until(() => offersFor(allowed)[0], 'the allowed subscriber offered the track', 5000);

  const eve = await connect('grants', 'eve', { canSubscribe: false });
  eve.send({
    case: 'subscription',
    value: new UpdateSubscription({ trackSids: [trackSid], subscribe: true }),
  });
  // What eve is told is answered in order: a pong after the request means the request was handled.
  eve.send({ case: 'pingReq', value: new Ping({ timestamp: 1n }) });
  await until(() => eve.messages.find((m) => m.message.case === 'pongResp'), "eve's pong", 5000);
  await new Promise((r) => setTimeout(r, 300)); // a subscriber offer is made asynchronously
  expect(offersFor(eve)).toEqual([]);
  expect(eve.closed).toBeUndefined();

  allowed.ws.close();
  eve.ws.close();
  await publisher.disconnect();
  await expectBystanderUnaffected();
});

/** Mallory and Rita in `room` on LiveKit's Rust SDK, with the start of each packet Rita receives. */
async function dataPair(roomName: string) {
  const join = async (identity: string) => {
    const room = new Room();
    await room.connect(media.url, await token(roomName, identity), { autoSubscribe: false, dynacast: false });
    return room;
  };
  const [mallory, rita] = await Promise.all([join('mallory'), join('rita')]);
  const received: string[] = [];
  rita.on('dataReceived', (payload: Uint8Array) => received.push(new TextDecoder().decode(payload.subarray(0, 16))));
  return { mallory, rita, received };
}

it("drops data packets over a sender's budget (2,000 sent fast), keeps the sender, and relays within budget again", async () => {
  const { mallory, rita, received } = await dataPair('data-floods');
  const session = () => media.rooms.get('data-floods')?.participants.get('mallory')?.link as SignalSession | undefined;
  // Control: one packet arrives, so the data path works before the flood.
  await mallory.localParticipant!.publishData(new TextEncoder().encode('hello'), { reliable: true });
  await until(() => (received.includes('hello') ? true : undefined), 'the first packet at rita', 5000);

  const payload = new Uint8Array(2048).fill(120);
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: 2000 }, () => mallory.localParticipant!.publishData(payload, { reliable: true })),
  );
  const flood = () => received.filter((text) => text.startsWith('xxxx')).length;
  // Every packet is either relayed (and then received, the channel being reliable) or dropped.
  await until(
    () => (flood() + (session()?.dataPacketsDropped ?? 0) === 2000 ? true : undefined),
    'every flood packet relayed or dropped',
    10_000,
  );
  const seconds = (performance.now() - startedAt) / 1000;
  expect(flood()).toBeLessThanOrEqual(
    SESSION_LIMITS.dataPacketBurst + Math.ceil(seconds * SESSION_LIMITS.dataPacketsPerSecond),
  );
  expect(session()!.dataPacketsDropped).toBeGreaterThan(0);
  const dropLine = await until(
    () => serverLog.find((line) => line.startsWith('mallory@data-floods: dropped data packets')),
    'the drop logged',
    3000,
  );
  expect(dropLine).toMatch(/\d+ over 100 packets\/s/);

  // The sender stays connected, and a packet within budget still arrives: the bucket is empty
  // right after the flood, so wait for ten packets' worth of refill first.
  expect(mallory.isConnected && rita.isConnected).toBe(true);
  await new Promise((r) => setTimeout(r, (10 * 1000) / SESSION_LIMITS.dataPacketsPerSecond));
  await mallory.localParticipant!.publishData(new TextEncoder().encode('still here'), { reliable: true });
  await until(() => (received.includes('still here') ? true : undefined), 'the later packet at rita', 5000);

  await Promise.all([mallory.disconnect(), rita.disconnect()]);
  await expectBystanderUnaffected();
});

it('a reader that does not keep up misses data packets: what waits for it stays bounded, and it gets data again once it does', async () => {
  const { mallory, rita, received } = await dataPair('slow-reader');
  const session = (identity: string) =>
    media.rooms.get('slow-reader')?.participants.get(identity)?.link as SignalSession | undefined;
  await mallory.localParticipant!.publishData(new TextEncoder().encode('hello'), { reliable: true });
  await until(() => (received.includes('hello') ? true : undefined), 'the first packet at rita', 5000);

  // Rita's network carries 100 KB/s from the server to her data channel: what the server has for
  // her piles up behind SCTP's window, as for a reader on a slow link.
  type Link = { sctpTransport: { dtlsTransport: { sendData: (data: Buffer) => Promise<void> } } };
  const pcs = Object.values(session('rita')! as unknown as Record<string, unknown>).filter(
    (v): v is Link => !!(v as Partial<Link> | null)?.sctpTransport?.dtlsTransport,
  );
  expect(pcs.length).toBeGreaterThan(0);
  let throttled = true;
  for (const { sctpTransport } of pcs) {
    const link = sctpTransport.dtlsTransport;
    const send = link.sendData;
    let line = Promise.resolve();
    link.sendData = (data) => {
      if (!throttled) return send(data);
      line = line.then(() => new Promise((r) => setTimeout(r, data.length / 100)));
      return line.then(() => send(data));
    };
  }
  const waiting = () => session('rita')!.dataWaitingBytes;
  // Within mallory's budget (40 packets of 14 KB a second for 3 s: under 1 MiB/s and its burst).
  const payload = new Uint8Array(14_000).fill(121);
  let mostWaiting = 0;
  for (let i = 0; i < 120; i++) {
    void mallory.localParticipant!.publishData(payload, { reliable: true });
    mostWaiting = Math.max(mostWaiting, waiting());
    await new Promise((r) => setTimeout(r, 25));
  }
  await until(() => (session('rita')!.dataPacketsMissed > 0 ? true : undefined), 'rita missing packets', 10_000);
  expect(session('mallory')!.dataPacketsDropped).toBe(0);
  expect(mostWaiting).toBeLessThanOrEqual(SESSION_LIMITS.dataReceiverQueueBytes + 2 * payload.length);
  const missLine = await until(
    () => serverLog.find((line) => line.startsWith('rita@slow-reader: missed data packets')),
    'the misses logged',
    3000,
  );
  expect(missLine).toMatch(/over \d+ bytes waiting/);
  await expectBystanderUnaffected();

  // Her network recovers: what was queued drains, and a new packet reaches her.
  throttled = false;
  await until(() => (waiting() === 0 ? true : undefined), "rita's queue drained", 30_000);
  await mallory.localParticipant!.publishData(new TextEncoder().encode('caught up'), { reliable: true });
  await until(() => (received.includes('caught up') ? true : undefined), 'the later packet at rita', 10_000);
  expect(mallory.isConnected && rita.isConnected).toBe(true);
  await Promise.all([mallory.disconnect(), rita.disconnect()]);
}, 90_000);
