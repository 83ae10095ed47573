/**
 * Where a video subscription starts (media-server/sfu/down-track.ts): at a key frame that reaches
 * the subscriber. RTP sent before the subscriber's DTLS is up is dropped on the way, so a key frame
 * that comes earlier is held and goes out the moment the transport is up, with the frames after it;
 * one held too long is stale and is not sent. A fake source and transceiver, real VP8 payload
 * headers (a key frame's P bit 0, a delta frame's 1), the clock faked; last, the session's own
 * Subscriptions on a werift peer connection, for when the key frame is asked for.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RtpHeader,
  RtpPacket,
  type RTCRtpTransceiver,
} from 'werift';
import { TrackType } from '@livekit/protocol';
import { forwardTrack } from '@/media-server/sfu/down-track';
import { Subscriptions } from '@/media-server/rtc/subscriptions';

const KEY = Buffer.from([0x10, 0x00]);
const DELTA = Buffer.from([0x11, 0x00]);
const DELTA_2 = Buffer.from([0x11, 0x01]);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  let deliver: (rtp: RtpPacket) => void = () => undefined;
  const source = {
    onReceiveRtp: {
      subscribe: (fn: (rtp: RtpPacket) => void) => {
        deliver = fn;
        return { unSubscribe: () => undefined };
      },
    },
  } as unknown as MediaStreamTrack;
  const sent: Buffer[] = [];
  const transport = { state: 'connecting' };
  const subscriber = {
    headerExtensions: [],
    sender: {
      dtlsTransport: transport,
      sendRtp: async (packet: RtpPacket) => void sent.push(packet.payload),
    },
  } as unknown as RTCRtpTransceiver;
  const asked = { count: 0 };
  const forwarding = forwardTrack(
    source,
    subscriber,
    { rtpOut: 0, forwardMs: 0 },
    { mimeType: 'video/VP8', request: () => asked.count++ },
  );
  let seq = 0;
  const send = (payload: Buffer) =>
    deliver(new RtpPacket(new RtpHeader({ sequenceNumber: seq++, payloadType: 96 }), payload));
  return { forwarding, send, sent, transport, asked };
}

it('holds a key frame that comes before the subscriber’s transport is up and sends it, with what followed, as the transport comes up', () => {
  const { forwarding, send, sent, transport, asked } = setup();
  send(DELTA); // before any key frame: undecodable, not held
  forwarding.askForStart(); // as ICE connects
  expect(asked.count).toBe(1);
  send(KEY);
  send(DELTA);
  expect(sent).toEqual([]); // DTLS is not up: sent now, it would be lost
  vi.advanceTimersByTime(100);
  transport.state = 'connected';
  forwarding.transportUp();
  expect(sent).toEqual([KEY, DELTA]);
  forwarding.askForStart(); // as DTLS connects: it has its key frame, the publisher is not asked again
  expect(asked.count).toBe(1);
  send(DELTA_2);
  expect(sent).toEqual([KEY, DELTA, DELTA_2]);
  forwarding.stop();
});

it('starts on the held key frame with the first packet after the transport is up, if not told', () => {
  const { forwarding, send, sent, transport } = setup();
  send(KEY);
  transport.state = 'connected';
  send(DELTA);
  expect(sent).toEqual([KEY, DELTA]);
  forwarding.stop();
});

it('drops a held key frame that has grown stale, and starts at the next one', () => {
  const { forwarding, send, sent, transport, asked } = setup();
  send(KEY);
  send(DELTA);
  vi.advanceTimersByTime(600);
  transport.state = 'connected';
  forwarding.transportUp();
  expect(sent).toEqual([]);
  forwarding.askForStart(); // nothing usable held, nothing asked: asks now
  expect(asked.count).toBe(1);
  send(DELTA); // not decodable without the key frame
  expect(sent).toEqual([]);
  send(KEY);
  send(DELTA_2);
  expect(sent).toEqual([KEY, DELTA_2]);
  forwarding.stop();
});

it('asks once for a key frame on its way, again only when it did not come', () => {
  const { forwarding, send, sent, transport, asked } = setup();
  forwarding.askForStart();
  vi.advanceTimersByTime(50);
  transport.state = 'connected';
  forwarding.transportUp();
  forwarding.askForStart(); // asked 50 ms ago: the key frame is on its way
  expect(asked.count).toBe(1);
  vi.advanceTimersByTime(400);
  forwarding.askForStart();
  expect(asked.count).toBe(2);
  send(KEY);
  expect(sent).toEqual([KEY]);
  forwarding.stop();
});

it('the session asks for a new subscriber’s key frame as its ICE connects, before DTLS is up', async () => {
  const subscriber = new RTCPeerConnection({});
  let asked = 0;
  const track = {
    sid: 'TR_camera',
    type: TrackType.VIDEO,
    media: new MediaStreamTrack({ kind: 'video' }),
    codecs: [new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90000, payloadType: 96 })],
    requestKeyFrame: () => asked++,
  };
  const publisher = { sid: 'PA_publisher', identity: 'publisher', tracks: new Map([[track.sid, track]]) };
  const room = { findTrack: (sid: string) => (sid === track.sid ? { publisher, track } : undefined) };
  const subscriptions = new Subscriptions(
    { identity: 'joiner', permission: { canSubscribe: true } } as never,
    subscriber,
    false,
    {
      room: () => room as never,
      ended: () => false,
      stats: { rtpOut: 0, forwardMs: 0 },
      log: () => undefined,
      negotiate: () => undefined,
    },
  );
  try {
    subscriptions.add(publisher as never, track as never);
    expect(asked).toBe(0); // nothing to send on yet
    subscriber.iceConnectionStateChange.execute('connected');
    expect(subscriber.connectionState).not.toBe('connected');
    expect(asked).toBe(1);
  } finally {
    subscriptions.stopAll();
    await subscriber.close();
  }
});
