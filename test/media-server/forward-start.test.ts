/**
 * Where a video subscription starts (media-server/sfu/down-track.ts): at a key frame that reaches
 * the subscriber. RTP sent before the subscriber's DTLS is up is dropped on the way, so a key
 * frame forwarded then would be lost and the frames after it undecodable until the next one: the
 * forwarder waits for the transport, then for a key frame. A fake source and transceiver, real
 * VP8 payload headers (a key frame's P bit 0, a delta frame's 1).
 */
import { expect, it } from 'vitest';
import { RtpHeader, RtpPacket, type MediaStreamTrack, type RTCRtpTransceiver } from 'werift';
import { forwardTrack } from '@/media-server/sfu/down-track';

const KEY = Buffer.from([0x10, 0x00]);
const DELTA = Buffer.from([0x11, 0x00]);

it('forwards nothing before the subscriber’s transport is up, then starts at the next key frame', () => {
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
  let asked = 0;
  const stop = forwardTrack(
    source,
    subscriber,
    { rtpOut: 0, forwardMs: 0 },
    { mimeType: 'video/VP8', request: () => asked++ },
  );
  let seq = 0;
  const packet = (payload: Buffer) => new RtpPacket(new RtpHeader({ sequenceNumber: seq++, payloadType: 96 }), payload);

  deliver(packet(KEY)); // a key frame before DTLS: it would be lost, so it does not start the subscription
  deliver(packet(DELTA));
  transport.state = 'connected';
  deliver(packet(DELTA)); // not decodable without the key frame that was lost
  expect(sent).toEqual([]);
  deliver(packet(KEY));
  deliver(packet(DELTA));
  expect(sent).toEqual([KEY, DELTA]);
  expect(asked).toBe(0); // the session asks for the key frame once the transport is up (keyFramesForAll)
  stop();
});
