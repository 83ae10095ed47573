/**
 * IVF, the container the egress decoder's ffmpeg reads VP9 and AV1 from (their RTP is put back into
 * frames in Node: vp9-ivf.ts, av1-ivf.ts): a 32-byte file header, then each frame with its size
 * and timestamp, here in the RTP clock (90 kHz).
 */

/** An RTP packet as the depacketizers read it. */
export interface RtpPayload {
  sequenceNumber: number;
  timestamp: number;
  marker: boolean;
  payload: Buffer;
}

export function ivfHeader(fourcc: 'VP90' | 'AV01', width: number, height: number) {
  const header = Buffer.alloc(32);
  header.write('DKIF', 0, 'ascii');
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(32, 6);
  header.write(fourcc, 8, 'ascii');
  header.writeUInt16LE(width, 12);
  header.writeUInt16LE(height, 14);
  header.writeUInt32LE(90000, 16); // time base: the RTP clock
  header.writeUInt32LE(1, 20);
  return header;
}

export function ivfFrame(data: Buffer, timestamp: number) {
  const header = Buffer.alloc(12);
  header.writeUInt32LE(data.length, 0);
  header.writeBigUInt64LE(BigInt(timestamp), 4);
  return Buffer.concat([header, data]);
}

/** RTP timestamps from the first one on, unwrapped past 2^32 (an IVF timestamp only grows). */
export function timestampsFromZero() {
  let base: number | undefined;
  let last = 0;
  let wraps = 0;
  return (timestamp: number) => {
    if (timestamp < last && last - timestamp > 2 ** 31) wraps++;
    last = timestamp;
    base ??= timestamp;
    return Math.max(0, timestamp + wraps * 2 ** 32 - base);
  };
}
