/**
 * VP9 over RTP (RFC 9628) back into pictures, written as an IVF stream for ffmpeg. The static
 * ffmpeg's own VP9 RTP depacketizer takes a frame's end for the picture's end, which holds for one
 * spatial layer only: livekit-client sends VP9 as SVC (L3T3: three spatial layers, each its own
 * frame, in one RTP stream), and ffmpeg dropped every picture. Here each picture (the layer frames
 * of one RTP timestamp) is written as one IVF frame — a VP9 superframe when it has several layers,
 * which the decoder splits — from the first key picture on; a picture with a packet missing is
 * dropped.
 */
import { beginsKeyFrame } from '../sfu/keyframe';
import { ivfFrame, ivfHeader, type RtpPayload, timestampsFromZero } from './ivf';

/** The payload descriptor's length (RFC 9628 §4.2), or undefined when the packet is too short for it. */
function descriptorLength(payload: Buffer) {
  const [first] = payload;
  let offset = 1;
  const byte = () => (offset < payload.length ? payload[offset++] : undefined);
  if (first & 0x80 && (byte() ?? 0) & 0x80) byte(); // I: PictureID, 7 or 15 bits
  if (first & 0x20) {
    byte(); // L: layer indices
    if (!(first & 0x10)) byte(); // TL0PICIDX (non-flexible mode)
  }
  if (first & 0x10 && first & 0x40) {
    // F and P: up to three reference indices, each saying whether another follows
    for (let i = 0; i < 3 && (byte() ?? 0) & 0x01; i++);
  }
  if (first & 0x02) {
    // V: the scalability structure
    const ss = byte() ?? 0;
    if (ss & 0x10) offset += (((ss >> 5) & 0x07) + 1) * 4;
    if (ss & 0x08) {
      const pictures = byte() ?? 0;
      for (let i = 0; i < pictures; i++) offset += ((byte() ?? 0) >> 2) & 0x03;
    }
  }
  return offset <= payload.length ? offset : undefined;
}

/** Layer frames joined as a VP9 superframe (VP9 bitstream spec, Annex B), or the one frame alone. */
function superframe(frames: Buffer[]) {
  if (frames.length === 1) return frames[0];
  const largest = Math.max(...frames.map((f) => f.length));
  const bytesPerSize = largest < 1 << 8 ? 1 : largest < 1 << 16 ? 2 : largest < 1 << 24 ? 3 : 4;
  const marker = 0xc0 | ((bytesPerSize - 1) << 3) | (frames.length - 1);
  const index = Buffer.alloc(2 + bytesPerSize * frames.length);
  index[0] = marker;
  frames.forEach((frame, i) => index.writeUIntLE(frame.length, 1 + i * bytesPerSize, bytesPerSize));
  index[index.length - 1] = marker;
  return Buffer.concat([...frames, index]);
}

/**
 * Takes VP9 RTP packets in arrival order and calls `write` with the IVF stream: the file header
 * first, then one frame per whole picture.
 */
export function vp9ToIvf(write: (chunk: Buffer) => void, size: { width: number; height: number }) {
  write(ivfHeader('VP90', size.width, size.height));
  let picture: { timestamp: number; frames: Buffer[]; broken: boolean; key: boolean } | undefined;
  let frame: Buffer[] | undefined;
  let lastSequence: number | undefined;
  let started = false;
  const unwrap = timestampsFromZero();

  const finish = () => {
    if (picture && !picture.broken && !frame && picture.frames.length && (started || picture.key)) {
      started = true;
      write(ivfFrame(superframe(picture.frames), picture.timestamp));
    }
    picture = undefined;
    frame = undefined;
  };

  return (packet: RtpPayload) => {
    const { payload } = packet;
    const length = payload.length ? descriptorLength(payload) : undefined;
    if (length === undefined) return;
    const timestamp = unwrap(packet.timestamp);
    const lost = lastSequence !== undefined && packet.sequenceNumber !== ((lastSequence + 1) & 0xffff);
    lastSequence = packet.sequenceNumber;
    if (picture && picture.timestamp !== timestamp) finish();
    picture ??= { timestamp, frames: [], broken: false, key: beginsKeyFrame('video/VP9', payload) === true };
    if (lost) picture.broken = true;
    const beginning = (payload[0] & 0x08) !== 0;
    const end = (payload[0] & 0x04) !== 0;
    if (beginning) frame = [];
    if (!frame) picture.broken = true;
    else {
      frame.push(payload.subarray(length));
      if (end) {
        picture.frames.push(Buffer.concat(frame));
        frame = undefined;
      }
    }
    if (packet.marker) finish();
  };
}
