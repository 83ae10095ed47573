/**
 * Whether an RTP packet begins a key frame, read from its payload format's header alone (each
 * payload descriptor stays in the clear under end-to-end encryption: it is written after the
 * frame is encrypted; VP8's and H.264's first bytes are left unencrypted by LiveKit's clients for
 * the same reason). A subscriber that starts on a key frame decodes from its first packet; one fed
 * the frames before it shows nothing, or garbage, until the next.
 */

/** VP8 (RFC 7741 §4.2–4.3): start of partition 0, and the P bit of the VP8 payload header clear. */
function vp8(payload: Uint8Array) {
  if (payload.length < 1) return false;
  const start = (payload[0] & 0x10) !== 0 && (payload[0] & 0x07) === 0;
  if (!start) return false;
  let offset = 1;
  if (payload[0] & 0x80) {
    const x = payload[offset++];
    if (x & 0x80) offset += payload[offset] & 0x80 ? 2 : 1; // PictureID, 7 or 15 bits
    if (x & 0x40) offset++; // TL0PICIDX
    if (x & 0x30) offset++; // TID/KEYIDX
  }
  return offset < payload.length && (payload[offset] & 0x01) === 0;
}

const H264_IDR = 5;
const H264_SPS = 7;
const h264KeyNal = (type: number) => type === H264_IDR || type === H264_SPS;

/**
 * H.264 (RFC 6184 §5.6–5.8): an IDR slice or a sequence parameter set (libwebrtc sends SPS, PPS and
 * IDR together) as a single NAL unit, inside a STAP-A, or as the start of an FU-A.
 */
function h264(payload: Uint8Array) {
  if (payload.length < 1) return false;
  const type = payload[0] & 0x1f;
  if (type >= 1 && type <= 23) return h264KeyNal(type);
  if (type === 24) {
    for (let offset = 1; offset + 2 < payload.length; ) {
      const size = (payload[offset] << 8) | payload[offset + 1];
      if (h264KeyNal(payload[offset + 2] & 0x1f)) return true;
      offset += 2 + size;
    }
    return false;
  }
  if (type === 28) return payload.length > 1 && (payload[1] & 0x80) !== 0 && h264KeyNal(payload[1] & 0x1f);
  return false;
}

/**
 * VP9 (RFC 9628 §4.2): the beginning of a frame (B) that is not inter-predicted (P clear), in the
 * lowest spatial layer when layer indices are present — the start of a key picture, all its
 * spatial layers following (SVC streams are forwarded whole).
 */
function vp9(payload: Uint8Array) {
  if (payload.length < 1) return false;
  const [first] = payload;
  const interPredicted = (first & 0x40) !== 0;
  const beginning = (first & 0x08) !== 0;
  if (interPredicted || !beginning) return false;
  if (!(first & 0x20)) return true; // no layer indices: one layer
  let offset = 1;
  if (first & 0x80) offset += payload[offset] & 0x80 ? 2 : 1; // PictureID
  return offset < payload.length && ((payload[offset] >> 1) & 0x07) === 0; // SID 0
}

const AV1_OBU_SEQUENCE_HEADER = 1;

/**
 * AV1 (AV1 RTP payload format §4.4): the aggregation header's N bit (the first packet of a coded
 * video sequence), or a first OBU, not continued from the last packet, that is a sequence header.
 */
function av1(payload: Uint8Array) {
  if (payload.length < 2) return false;
  const aggregation = payload[0];
  if (aggregation & 0x08) return true;
  if (aggregation & 0x80) return false; // Z: the first element continues an OBU
  let offset = 1;
  if (((aggregation >> 4) & 0x03) !== 1) {
    // The first element's size comes first (LEB128) unless W says the packet holds one element.
    while (offset < payload.length && payload[offset] & 0x80) offset++;
    offset++;
  }
  return offset < payload.length && ((payload[offset] >> 3) & 0x0f) === AV1_OBU_SEQUENCE_HEADER;
}

const detectors: Record<string, (payload: Uint8Array) => boolean> = {
  'video/vp8': vp8,
  'video/h264': h264,
  'video/vp9': vp9,
  'video/av1': av1,
};

/**
 * Whether `payload` (an RTP packet's payload in `mimeType`) begins a key frame; undefined for a
 * codec this server cannot read (audio, or an unknown one), where every packet may start.
 */
export function beginsKeyFrame(mimeType: string, payload: Uint8Array): boolean | undefined {
  return detectors[mimeType.toLowerCase()]?.(payload);
}

/** Whether key frames of `mimeType` can be told by beginsKeyFrame. */
export const knowsKeyFrames = (mimeType: string) => mimeType.toLowerCase() in detectors;
