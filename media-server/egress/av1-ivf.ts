/**
 * AV1 over RTP (the AV1 RTP payload format, §4) back into temporal units, written as an IVF stream
 * for ffmpeg: the static ffmpeg has an AV1 decoder (libaom) but no AV1 RTP depacketizer, so the
 * egress decoder feeds it IVF on stdin instead of RTP. Each temporal unit is the OBUs of one RTP
 * timestamp, each given back its size field (RTP carries OBUs without one) after a temporal
 * delimiter, as a low-overhead bitstream has them. A unit with a packet missing is dropped, and
 * nothing is written until a unit that starts a coded video sequence (a key frame).
 */
import { beginsKeyFrame } from '../sfu/keyframe';
import { ivfFrame, ivfHeader, type RtpPayload, timestampsFromZero } from './ivf';

/** LEB128, as AV1 writes sizes. */
function leb128(value: number) {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    bytes.push(byte);
  } while (value > 0);
  return Buffer.from(bytes);
}

function readLeb128(data: Uint8Array, offset: number) {
  let value = 0;
  for (let i = 0; i < 8 && offset + i < data.length; i++) {
    value += (data[offset + i] & 0x7f) * 2 ** (7 * i);
    if (!(data[offset + i] & 0x80)) return { value, length: i + 1 };
  }
  return undefined;
}

const OBU_TEMPORAL_DELIMITER = 2;
const OBU_TILE_LIST = 8;
const TEMPORAL_DELIMITER = Buffer.from([(OBU_TEMPORAL_DELIMITER << 3) | 0x02, 0]);

/** An OBU as RTP carries it (no size field, or one) in the low-overhead form, with its size. */
function withSizeField(obu: Buffer) {
  if (obu.length === 0) return undefined;
  const header = obu[0];
  const type = (header >> 3) & 0x0f;
  // Temporal delimiters are written by the muxer; tile lists are not part of a stream (§5).
  if (type === OBU_TEMPORAL_DELIMITER || type === OBU_TILE_LIST) return undefined;
  if (header & 0x02) return obu;
  const headerLength = header & 0x04 ? 2 : 1;
  if (obu.length < headerLength) return undefined;
  const payload = obu.subarray(headerLength);
  const rewritten = Buffer.from(obu.subarray(0, headerLength));
  rewritten[0] |= 0x02;
  return Buffer.concat([rewritten, leb128(payload.length), payload]);
}

/**
 * Takes AV1 RTP packets in arrival order and calls `write` with the IVF stream: the file header
 * first, then one frame per whole temporal unit.
 */
export function av1ToIvf(write: (chunk: Buffer) => void, size: { width: number; height: number }) {
  write(ivfHeader('AV01', size.width, size.height));
  let unit: { timestamp: number; obus: Buffer[]; broken: boolean; key: boolean } | undefined;
  let fragment: Buffer[] | undefined;
  let lastSequence: number | undefined;
  let started = false;
  const unwrap = timestampsFromZero();

  const finish = () => {
    if (unit && !unit.broken && unit.obus.length && (started || unit.key)) {
      started = true;
      write(ivfFrame(Buffer.concat([TEMPORAL_DELIMITER, ...unit.obus]), unit.timestamp));
    }
    unit = undefined;
    fragment = undefined;
  };

  return (packet: RtpPayload) => {
    const { payload } = packet;
    if (payload.length < 1) return;
    const timestamp = unwrap(packet.timestamp);
    const lost = lastSequence !== undefined && packet.sequenceNumber !== ((lastSequence + 1) & 0xffff);
    lastSequence = packet.sequenceNumber;
    if (unit && unit.timestamp !== timestamp) finish();
    unit ??= { timestamp, obus: [], broken: false, key: beginsKeyFrame('video/AV1', payload) === true };
    if (lost) {
      unit.broken = true;
      fragment = undefined;
    }

    const aggregation = payload[0];
    const continues = (aggregation & 0x80) !== 0; // Z
    const continued = (aggregation & 0x40) !== 0; // Y
    const count = (aggregation >> 4) & 0x03; // W
    const elements: Buffer[] = [];
    for (let offset = 1, index = 1; offset < payload.length; index++) {
      if (count !== 0 && index === count) {
        elements.push(payload.subarray(offset));
        break;
      }
      const length = readLeb128(payload, offset);
      if (!length || offset + length.length + length.value > payload.length) {
        unit.broken = true;
        return;
      }
      offset += length.length;
      elements.push(payload.subarray(offset, offset + length.value));
      offset += length.value;
    }
    elements.forEach((element, i) => {
      const first = i === 0;
      const last = i === elements.length - 1;
      if (first && continues) {
        if (!fragment) {
          unit!.broken = true;
          return;
        }
        fragment.push(element);
      } else fragment = [element];
      if (last && continued) return;
      const obu = withSizeField(Buffer.concat(fragment!));
      fragment = undefined;
      if (obu) unit!.obus.push(obu);
    });
    if (packet.marker) finish();
  };
}
