/**
 * The media server's data relay (issue 46): each relayed packet carries its real sender whatever
 * it claims (stamped by appending the sender's fields, not by encoding the packet again), only an
 * agent's transcriptions are relayed (as on LiveKit), and werift's SCTP acknowledges a burst of
 * chunks with fewer SACKs than chunks, every message still arriving whole and in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RTCPeerConnection, type RTCDataChannel } from 'werift';
import {
  DataPacket,
  DataPacket_Kind,
  DataStream_Chunk,
  ParticipantInfo_Kind,
  SignalResponse,
  Transcription,
  TranscriptionSegment,
  UserPacket,
} from '@livekit/protocol';
import { AccessToken, type VideoGrant } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { senderStamp, stampPacket } from '@/media-server/rtc/data-relay';
import { coalesceSacks } from '@/media-server/rtc/sctp-acks';
import { until } from '../support/until';
import { v1Client } from '../support/v1-client';

let media: DevMediaServer;

beforeAll(async () => {
  media = await startDevMediaServer();
}, 30_000);

afterAll(async () => {
  await media?.close();
});

/** A raw v1 client whose reliable data channel sends and receives DataPackets as bytes. */
async function dataClient(
  room: string,
  identity: string,
  { kind, grant = {}, maxMessageSize }: { kind?: string; grant?: Partial<VideoGrant>; maxMessageSize?: number } = {},
) {
  const pc = new RTCPeerConnection({});
  const channel = pc.createDataChannel('_reliable');
  const received: DataPacket[] = [];
  channel.onMessage.subscribe((data) => {
    if (typeof data !== 'string') received.push(DataPacket.fromBinary(new Uint8Array(data)));
  });
  const at = new AccessToken(media.apiKey, media.apiSecret, { identity });
  at.addGrant({ roomJoin: true, room, ...grant });
  if (kind) at.kind = kind;
  const client = await v1Client({
    url: media.url,
    token: await at.toJwt(),
    pc,
    rewriteOffer:
      maxMessageSize === undefined
        ? undefined
        : (sdp) => sdp.replace(/a=max-message-size:\d+/, `a=max-message-size:${maxMessageSize}`),
  });
  await until(() => (channel.readyState === 'open' ? true : undefined), `${identity}'s data channel`, 15_000);
  return { client, received, send: (packet: DataPacket) => channel.send(Buffer.from(packet.toBinary())) };
}

const transcription = (speaker: string, text: string) =>
  new DataPacket({
    kind: DataPacket_Kind.RELIABLE,
    value: {
      case: 'transcription',
      value: new Transcription({
        transcribedParticipantIdentity: speaker,
        trackId: 'TR_x',
        segments: [new TranscriptionSegment({ id: text, text, final: true })],
      }),
    },
  });

it('stamps a forged packet with its real sender, read the same by any decoder', () => {
  const stamp = senderStamp('mallory', 'PA_mallory');
  const forged = new DataPacket({
    participantIdentity: 'ada',
    participantSid: 'PA_ada',
    value: {
      case: 'user',
      value: new UserPacket({
        participantIdentity: 'ada',
        participantSid: 'PA_ada',
        payload: new Uint8Array([1, 2, 3]),
        topic: 'chat',
        destinationIdentities: ['vic'],
      }),
    },
  });
  const bytes = forged.toBinary();
  const { destinations, out } = stampPacket(bytes, DataPacket.fromBinary(bytes), stamp);
  expect(destinations).toEqual(['vic']);
  const read = DataPacket.fromBinary(out);
  expect([read.participantIdentity, read.participantSid]).toEqual(['mallory', 'PA_mallory']);
  expect(read.value.case).toBe('user');
  const user = read.value.value as UserPacket;
  expect([user.participantIdentity, user.participantSid, user.topic]).toEqual(['mallory', 'PA_mallory', 'chat']);
  expect([...user.payload]).toEqual([1, 2, 3]);
  expect(user.destinationIdentities).toEqual(['vic']);

  const chunk = new DataPacket({
    participantIdentity: 'ada',
    destinationIdentities: ['bob'],
    value: { case: 'streamChunk', value: new DataStream_Chunk({ streamId: 's1', content: new Uint8Array(9) }) },
  }).toBinary();
  const stamped = stampPacket(chunk, DataPacket.fromBinary(chunk), stamp);
  expect(stamped.destinations).toEqual(['bob']);
  const readChunk = DataPacket.fromBinary(stamped.out);
  expect([readChunk.participantIdentity, readChunk.value.case]).toEqual(['mallory', 'streamChunk']);
  expect((readChunk.value.value as DataStream_Chunk).content.length).toBe(9);
});

it("relays packets stamped with their sender, and an agent's transcriptions but no one else's", async () => {
  const vic = await dataClient('relay', 'vic');
  const mallory = await dataClient('relay', 'mallory');
  const agent = await dataClient('relay', 'captions-agent', { kind: 'agent' });
  try {
    mallory.send(transcription('vic', 'forged by mallory'));
    mallory.send(
      new DataPacket({
        participantIdentity: 'captions-agent',
        value: {
          case: 'user',
          value: new UserPacket({ participantIdentity: 'captions-agent', payload: Buffer.from('hi') }),
        },
      }),
    );
    agent.send(transcription('vic', 'said by vic'));
    await until(() => (vic.received.length >= 2 ? true : undefined), 'two packets at vic', 10_000);
    // What else may still be on its way has had as long as the agent's, sent after it.
    await new Promise((r) => setTimeout(r, 500));
    const seen = vic.received.map((p) => ({
      from: p.participantIdentity,
      case: p.value.case,
      text:
        p.value.case === 'transcription'
          ? p.value.value.segments[0]?.text
          : Buffer.from((p.value.value as UserPacket).payload).toString(),
      userFrom: p.value.case === 'user' ? p.value.value.participantIdentity : undefined,
    }));
    expect(seen).toEqual([
      { from: 'mallory', case: 'user', text: 'hi', userFrom: 'mallory' },
      { from: 'captions-agent', case: 'transcription', text: 'said by vic', userFrom: undefined },
    ]);
    // The agent is listed as one (LiveKit's ParticipantInfo.kind), mallory is not.
    const infos = vic.client.messages.flatMap((m: SignalResponse['message']) =>
      m.case === 'join' ? m.value.otherParticipants : m.case === 'update' ? m.value.participants : [],
    );
    expect(infos.find((p) => p.identity === 'captions-agent')?.kind).toBe(ParticipantInfo_Kind.AGENT);
    expect(infos.find((p) => p.identity === 'mallory')?.kind).toBe(ParticipantInfo_Kind.STANDARD);
  } finally {
    for (const c of [vic, mallory, agent]) await c.client.close();
  }
});

/** Two werift peer connections joined by a reliable data channel; `coalesce`: the receiver's SACKs coalesced. */
async function sctpPair(coalesce: boolean) {
  const sender = new RTCPeerConnection({});
  const receiver = new RTCPeerConnection({});
  sender.onIceCandidate.subscribe((c) => c && receiver.addIceCandidate(c));
  receiver.onIceCandidate.subscribe((c) => c && sender.addIceCandidate(c));
  const channel = sender.createDataChannel('_reliable');
  const incoming = new Promise<RTCDataChannel>((resolve) => receiver.onDataChannel.subscribe(resolve));
  await sender.setLocalDescription(await sender.createOffer());
  await receiver.setRemoteDescription(sender.localDescription!);
  await receiver.setLocalDescription(await receiver.createAnswer());
  await sender.setRemoteDescription(receiver.localDescription!);
  const dc = await incoming;
  if (coalesce) coalesceSacks(receiver);
  const sctp = receiver.sctpTransport!.sctp as unknown as {
    sendSack(): Promise<void>;
    handleData(data: Buffer): Promise<void>;
  };
  const counts = { sacks: 0, packets: 0 };
  const { sendSack, handleData } = sctp;
  sctp.sendSack = function (this: unknown) {
    counts.sacks++;
    return sendSack.call(this);
  };
  sctp.handleData = function (this: unknown, data: Buffer) {
    counts.packets++;
    return handleData.call(this, data);
  };
  const received: Buffer[] = [];
  dc.onMessage.subscribe((data) => typeof data !== 'string' && received.push(data));
  await until(() => (channel.readyState === 'open' ? true : undefined), 'the data channel open', 10_000);
  return {
    counts,
    received,
    send: (data: Buffer) => channel.send(data),
    close: () => Promise.all([sender.close(), receiver.close()]),
  };
}

it('acknowledges a burst of 14 KB messages with far fewer SACKs than packets; each arrives whole, in order', async () => {
  const messages = Array.from({ length: 60 }, (_, i) => Buffer.alloc(14_000, i));
  const figures: Record<string, { sacks: number; packets: number }> = {};
  for (const coalesce of [false, true]) {
    const pair = await sctpPair(coalesce);
    try {
      pair.counts.sacks = 0;
      pair.counts.packets = 0;
      for (const message of messages) pair.send(message);
      await until(() => (pair.received.length === messages.length ? true : undefined), 'every message', 20_000);
      expect(pair.received.every((m, i) => m.equals(messages[i]))).toBe(true);
      figures[coalesce ? 'coalesced' : 'werift alone'] = { ...pair.counts };
    } finally {
      await pair.close();
    }
  }
  console.log('SACKs for 60 messages of 14 KB:', figures);
  // werift alone acknowledges each packet; coalesced, a burst read in one go is acknowledged once.
  expect(figures['werift alone'].sacks).toBeGreaterThanOrEqual(figures['werift alone'].packets * 0.9);
  expect(figures.coalesced.sacks).toBeLessThan(figures.coalesced.packets / 2);
});

it('a receiver whose SDP allows only small messages misses the larger ones; everyone else gets them all', async () => {
  const ada = await dataClient('r-sizes', 'ada');
  const tiny = await dataClient('r-sizes', 'tiny', { maxMessageSize: 300 });
  const bob = await dataClient('r-sizes', 'bob');
  const user = (n: number, bytes: number) =>
    new DataPacket({
      kind: DataPacket_Kind.RELIABLE,
      value: { case: 'user', value: new UserPacket({ payload: new Uint8Array(bytes).fill(n), topic: `m${n}` }) },
    });
  // Forty packets too large for tiny, then one small: bob gets all of them, tiny the small one.
  for (let n = 0; n < 40; n++) ada.send(user(n, 2000));
  ada.send(user(99, 10));
  const topics = (who: typeof bob) =>
    who.received.flatMap((p) => (p.value.case === 'user' ? [p.value.value.topic ?? ''] : []));
  await until(() => (topics(bob).length === 41 ? true : undefined), 'bob gets all 41', 15_000);
  expect(topics(bob)).toEqual([...Array.from({ length: 40 }, (_, n) => `m${n}`), 'm99']);
  await until(() => (topics(tiny).includes('m99') ? true : undefined), 'tiny gets the small one', 15_000);
  expect(topics(tiny)).toEqual(['m99']);
  await Promise.all([ada, tiny, bob].map((c) => c.client.close()));
});
