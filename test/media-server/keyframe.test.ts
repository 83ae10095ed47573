/**
 * What the media server reads of each codec's RTP payload without decoding it: where a key frame
 * begins (keyframe.ts: a new subscriber and a reused section start there), and how VP9 and AV1
 * pictures are put back together for the egress decoder (vp9-ivf.ts, av1-ivf.ts). Payloads are
 * written here by hand, field by field, from each payload format's RFC.
 */
import { describe, expect, it } from 'vitest';
import { beginsKeyFrame, knowsKeyFrames } from '@/media-server/sfu/keyframe';
import { av1ToIvf } from '@/media-server/egress/av1-ivf';
import { vp9ToIvf } from '@/media-server/egress/vp9-ivf';
import { sameCodec, publisherCodecs, subscriberCodecsFromOffer } from '@/media-server/sfu/codecs';
import { RTCRtpCodecParameters } from 'werift';

const bytes = (...values: number[]) => Buffer.from(values);

describe('key frames by codec', () => {
  it('VP8: the P bit of the payload header at the start of partition 0, past the descriptor', () => {
    // X=1 S=1 PID=0; I=1 with a 15-bit PictureID; then the VP8 frame tag, P=0 (key) or 1.
    expect(beginsKeyFrame('video/VP8', bytes(0x90, 0x80, 0x81, 0x23, 0x10))).toBe(true);
    expect(beginsKeyFrame('video/VP8', bytes(0x90, 0x80, 0x81, 0x23, 0x11))).toBe(false);
    // Not the start of a partition: a key frame's later packet does not begin one.
    expect(beginsKeyFrame('video/VP8', bytes(0x80, 0x80, 0x81, 0x23, 0x10))).toBe(false);
    // No extension: the frame tag follows the first byte.
    expect(beginsKeyFrame('video/VP8', bytes(0x10, 0x00))).toBe(true);
  });

  it('H.264: IDR or SPS alone, in a STAP-A, or starting an FU-A', () => {
    expect(beginsKeyFrame('video/H264', bytes(0x65, 0x88))).toBe(true); // IDR slice
    expect(beginsKeyFrame('video/H264', bytes(0x67, 0x42))).toBe(true); // SPS
    expect(beginsKeyFrame('video/H264', bytes(0x41, 0x9a))).toBe(false); // non-IDR slice
    // STAP-A: SPS (2 bytes) and PPS (2 bytes); one with only a non-IDR slice.
    expect(beginsKeyFrame('video/H264', bytes(0x78, 0, 2, 0x67, 0x42, 0, 2, 0x68, 0xce))).toBe(true);
    expect(beginsKeyFrame('video/H264', bytes(0x78, 0, 2, 0x41, 0x9a))).toBe(false);
    // FU-A carrying an IDR: its start (S) begins the key frame, the rest do not.
    expect(beginsKeyFrame('video/H264', bytes(0x7c, 0x85, 0x88))).toBe(true);
    expect(beginsKeyFrame('video/H264', bytes(0x7c, 0x05, 0x88))).toBe(false);
  });

  it('VP9: beginning of a frame, not inter-predicted, in spatial layer 0', () => {
    // I=1 (7-bit PictureID), L=1, B=1, P=0; layer indices SID 0, then TL0PICIDX.
    expect(beginsKeyFrame('video/VP9', bytes(0xa8, 0x05, 0x00, 0x00))).toBe(true);
    // The same picture's spatial layer 1 (SID=1) does not begin it.
    expect(beginsKeyFrame('video/VP9', bytes(0xa8, 0x05, 0x02, 0x00))).toBe(false);
    expect(beginsKeyFrame('video/VP9', bytes(0xe8, 0x05, 0x00, 0x00))).toBe(false); // P=1
    expect(beginsKeyFrame('video/VP9', bytes(0x88, 0x05))).toBe(true); // one layer, no indices
  });

  it('AV1: the N bit, or a first OBU that is a sequence header', () => {
    expect(beginsKeyFrame('video/AV1', bytes(0x18, 0x0a, 0x00))).toBe(true); // N=1, W=1
    // W=1: the one element has no length; OBU type 1 (sequence header) is a key frame, 6 (frame) not.
    expect(beginsKeyFrame('video/AV1', bytes(0x10, 0x08, 0x00))).toBe(true);
    expect(beginsKeyFrame('video/AV1', bytes(0x10, 0x30, 0x00))).toBe(false);
    // W=0: the first element's length comes first.
    expect(beginsKeyFrame('video/AV1', bytes(0x00, 0x02, 0x08, 0x00))).toBe(true);
    // Z=1: the first element continues an OBU from the packet before.
    expect(beginsKeyFrame('video/AV1', bytes(0x90, 0x08, 0x00))).toBe(false);
  });

  it('knows no key frames in audio or a codec it cannot read', () => {
    expect(knowsKeyFrames('audio/opus')).toBe(false);
    expect(beginsKeyFrame('video/H265', bytes(0x26, 0x01))).toBeUndefined();
  });
});

describe('pictures put back together for the egress decoder', () => {
  const packet = (sequenceNumber: number, timestamp: number, marker: boolean, ...payload: number[]) => ({
    sequenceNumber,
    timestamp,
    marker,
    payload: Buffer.from(payload),
  });
  /** The frames of an IVF stream (after its 32-byte header). */
  const ivfFrames = (stream: Buffer) => {
    const frames: Buffer[] = [];
    for (let at = 32; at + 12 <= stream.length; ) {
      const size = stream.readUInt32LE(at);
      frames.push(stream.subarray(at + 12, at + 12 + size));
      at += 12 + size;
    }
    return frames;
  };

  it('VP9: one key picture of two spatial layers becomes one superframe; a picture with a loss is dropped', () => {
    const written: Buffer[] = [];
    const push = vp9ToIvf((chunk) => written.push(chunk), { width: 320, height: 240 });
    // Picture 1: layer 0 in two packets (B, then E), layer 1 in one (B and E, marker).
    push(packet(1, 3000, false, 0xa8, 0x05, 0x00, 0x00, 0xaa));
    push(packet(2, 3000, false, 0xa4, 0x05, 0x00, 0x00, 0xbb));
    push(packet(3, 3000, true, 0xac, 0x05, 0x02, 0x00, 0xcc, 0xdd));
    // Picture 2 loses its second packet (sequence 5).
    push(packet(4, 6000, false, 0xe8, 0x06, 0x00, 0x00, 0x11));
    push(packet(6, 6000, true, 0xec, 0x06, 0x02, 0x00, 0x22));
    const stream = Buffer.concat(written);
    expect(stream.subarray(0, 4).toString()).toBe('DKIF');
    expect(stream.subarray(8, 12).toString()).toBe('VP90');
    const frames = ivfFrames(stream);
    expect(frames).toHaveLength(1);
    // The two layer frames, then the superframe index: marker 0b11000001 (1-byte sizes, 2 frames).
    expect([...frames[0]]).toEqual([0xaa, 0xbb, 0xcc, 0xdd, 0xc1, 2, 2, 0xc1]);
  });

  it('AV1: a temporal unit gets a temporal delimiter and each OBU its size field; nothing before a key frame', () => {
    const written: Buffer[] = [];
    const push = av1ToIvf((chunk) => written.push(chunk), { width: 320, height: 240 });
    // A delta unit first (not written), then a key unit: N=1, W=2 — a sequence header (length 2),
    // then a frame OBU split over two packets (Y, then Z).
    push(packet(1, 0, true, 0x10, 0x30, 0x01));
    push(packet(2, 3000, false, 0x68, 0x02, 0x08, 0x0a, 0x30, 0x01, 0x02));
    push(packet(3, 3000, true, 0x90, 0x03, 0x04));
    const frames = ivfFrames(Buffer.concat(written));
    expect(frames).toHaveLength(1);
    expect([...frames[0]]).toEqual([
      ...[0x12, 0x00], // temporal delimiter
      ...[0x0a, 0x01, 0x0a], // sequence header, size 1
      ...[0x32, 0x04, 0x01, 0x02, 0x03, 0x04], // frame, size 4, joined from both packets
    ]);
  });
});

describe('codec choice', () => {
  const codec = (payloadType: number, mimeType: string, parameters?: string) =>
    new RTCRtpCodecParameters({
      payloadType,
      mimeType,
      clockRate: mimeType.startsWith('audio') ? 48000 : 90000,
      parameters,
    });
  const h264 = (pt: number, profile: string, mode: number) =>
    codec(pt, 'video/H264', `level-asymmetry-allowed=1;packetization-mode=${mode};profile-level-id=${profile}`);

  it('H.264 matches by packetization mode and profile, not level', () => {
    expect(sameCodec(h264(1, '42e01f', 1), h264(2, '42e034', 1))).toBe(true);
    expect(sameCodec(h264(1, '42e01f', 1), h264(2, '42e01f', 0))).toBe(false);
    expect(sameCodec(h264(1, '42e01f', 1), h264(2, '640c1f', 1))).toBe(false);
    // Baseline and Constrained Baseline: not the same, but of one family.
    expect(sameCodec(h264(1, '42001f', 1), h264(2, '42e01f', 1))).toBe(false);
    expect(sameCodec(h264(1, '42001f', 1), h264(2, '42e01f', 1), false)).toBe(true);
  });

  it("answers a publisher with the codec it named, else the first it offers, with that codec's RTX", () => {
    const offer = [
      codec(96, 'video/VP8'),
      codec(97, 'video/rtx', 'apt=96'),
      h264(102, '42e01f', 1),
      codec(103, 'video/rtx', 'apt=102'),
    ];
    expect(publisherCodecs(offer, { codec: 'video/H264', red: false })?.map((c) => c.payloadType)).toEqual([102, 103]);
    expect(publisherCodecs(offer, undefined)?.map((c) => c.payloadType)).toEqual([96, 97]);
    const audio = [codec(111, 'audio/opus'), codec(63, 'audio/red', '111/111')];
    expect(publisherCodecs(audio, { red: true })?.map((c) => c.mimeType)).toEqual(['audio/red', 'audio/opus']);
    expect(publisherCodecs(audio, { red: false })?.map((c) => c.mimeType)).toEqual(['audio/opus']);
  });

  it("gives a subscriber the publisher's codec under the subscriber's own payload types", () => {
    const published = [h264(102, '42e01f', 1), codec(103, 'video/rtx', 'apt=102')];
    const offered = [
      codec(96, 'video/VP8'),
      h264(125, '42e01f', 0),
      codec(126, 'video/rtx', 'apt=125'),
      h264(127, '42e01f', 1),
      codec(121, 'video/rtx', 'apt=127'),
    ];
    expect(subscriberCodecsFromOffer(published, offered)?.map((c) => c.payloadType)).toEqual([127, 121]);
    expect(subscriberCodecsFromOffer(published, [codec(96, 'video/VP8')])).toBeUndefined();
  });
});
