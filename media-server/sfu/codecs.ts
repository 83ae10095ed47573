/**
 * The codecs the media server carries and how each connection's are chosen. Nothing is transcoded,
 * so a subscriber receives exactly the codec its publisher sends:
 *
 * - a publisher's section is answered with one codec (and its RTX): the one its AddTrackRequest
 *   named (`simulcastCodecs`; RED for a microphone that did not set `disableRed`, as LiveKit
 *   prefers it), else the first the offer lists that this server carries — so what the track is
 *   announced as is what is sent;
 * - a subscriber's section is given that same codec, with the publisher's fmtp (H.264's
 *   packetization-mode and profile, VP9's profile-id, AV1's profile), under the payload type the
 *   subscriber's own offer gave it (v1) or under this server's (v0's offers), so each forwarded
 *   packet is rewritten to the subscriber's payload type, and its retransmissions to the RTX that
 *   goes with it.
 *
 * werift negotiates every codec both sides list, by MIME type alone, and sends with the first; a
 * transceiver's codecs are set here instead (useCodecs), after each remote description and before
 * each answer or offer.
 */
import {
  codecParametersFromString,
  RTCRtpCodecParameters,
  type RTCRtpTransceiver,
  RTP_EXTENSION_URI,
  SessionDescription,
  useFIR,
  useNACK,
  usePLI,
} from 'werift';

const videoFeedback = () => [useNACK(), usePLI(), useFIR()];

function video(payloadType: number, mimeType: string, parameters?: string) {
  return [
    new RTCRtpCodecParameters({ payloadType, mimeType, clockRate: 90000, parameters, rtcpFeedback: videoFeedback() }),
    new RTCRtpCodecParameters({
      payloadType: payloadType + 1,
      mimeType: 'video/rtx',
      clockRate: 90000,
      parameters: `apt=${payloadType}`,
    }),
  ];
}

const h264 = (profileLevelId: string, packetizationMode: 0 | 1) =>
  `level-asymmetry-allowed=1;packetization-mode=${packetizationMode};profile-level-id=${profileLevelId}`;

/**
 * What this server offers and accepts. Payload types are fixed so v0 offers are stable; an answer
 * takes the offerer's. H.264 is listed in the profiles browsers and libwebrtc offer (a publisher's
 * other levels are answered as offered: matching is by profile, not level).
 */
export const CODECS = {
  audio: [
    new RTCRtpCodecParameters({ payloadType: 111, mimeType: 'audio/opus', clockRate: 48000, channels: 2 }),
    new RTCRtpCodecParameters({
      payloadType: 63,
      mimeType: 'audio/red',
      clockRate: 48000,
      channels: 2,
      parameters: '111/111',
    }),
  ],
  video: [
    ...video(96, 'video/VP8'),
    ...video(98, 'video/VP9', 'profile-id=0'),
    ...video(100, 'video/VP9', 'profile-id=2'),
    ...video(45, 'video/AV1', 'level-idx=5;profile=0;tier=0'),
    ...video(102, 'video/H264', h264('42001f', 1)),
    ...video(104, 'video/H264', h264('42001f', 0)),
    ...video(106, 'video/H264', h264('42e01f', 1)),
    ...video(108, 'video/H264', h264('42e01f', 0)),
    ...video(112, 'video/H264', h264('4d001f', 1)),
    ...video(114, 'video/H264', h264('4d001f', 0)),
    ...video(116, 'video/H264', h264('64001f', 1)),
    ...video(118, 'video/H264', h264('64001f', 0)),
  ],
};

type Codec = RTCRtpCodecParameters;

/**
 * The AV1 RTP spec's dependency descriptor: which frames a frame depends on, per layer.
 * livekit-client adds it to its offers for SVC; Chromium assembles AV1 SVC (L3T3) only with it —
 * without it every frame arrived and none was decoded — so it is negotiated on video and forwarded
 * as received (the server forwards every layer, so what it says stays true), as LiveKit forwards
 * it. Publishers are asked for it on AV1 sections only (useCodecs).
 */
export const DEPENDENCY_DESCRIPTOR_URI = RTP_EXTENSION_URI.dependencyDescriptor;

const mimeOf = (codec: { mimeType: string }) => {
  const lower = codec.mimeType.toLowerCase();
  return lower === 'video/av1x' ? 'video/av1' : lower;
};
const isRtx = (codec: Codec) => mimeOf(codec).endsWith('/rtx');

/** The MIME types this server carries, each once, in CODECS's order (VP8 the first video): what a publisher may send. */
export const CARRIED_MIME_TYPES = [
  ...new Set([...CODECS.audio, ...CODECS.video].filter((c) => !isRtx(c)).map((c) => c.mimeType)),
];
const isRed = (codec: Codec) => mimeOf(codec) === 'audio/red';
const fmtp = (codec: Codec) => codecParametersFromString(codec.parameters ?? '') as Record<string, unknown>;

/**
 * H.264's profile from profile-level-id (RFC 6184 §8.1; the level, its last byte, is left out: a
 * receiver decodes a stream of another level, and level-asymmetry-allowed says so). Constrained
 * Baseline is told by its constraint flags, as libwebrtc does.
 */
function h264Profile(codec: Codec) {
  const id = String(fmtp(codec)['profile-level-id'] ?? '42000a').padStart(6, '0');
  const idc = Number.parseInt(id.slice(0, 2), 16);
  const iop = Number.parseInt(id.slice(2, 4), 16);
  if ((idc === 0x42 && iop & 0x40) || (idc === 0x4d && iop & 0x80) || (idc === 0x58 && (iop & 0xc0) === 0xc0))
    return 'constrained-baseline';
  if (idc === 0x42 || (idc === 0x58 && iop & 0x80)) return 'baseline';
  if (idc === 0x64 && (iop & 0x0c) === 0x0c) return 'constrained-high';
  return `idc-${idc}`;
}

/** The baseline profiles: what any encoder browsers use writes in either is decodable as the other. */
const h264Family = (profile: string) => (profile.endsWith('baseline') ? 'baseline' : profile);

/**
 * Whether a stream of codec `a` can go to a receiver that negotiated `b`: same MIME type and clock
 * rate, and for H.264 the same packetization mode and profile (exact: true; else its family), for
 * VP9 the same profile-id, for AV1 the same profile.
 */
export function sameCodec(a: Codec, b: Codec, exact = true): boolean {
  if (mimeOf(a) !== mimeOf(b) || a.clockRate !== b.clockRate) return false;
  switch (mimeOf(a)) {
    case 'video/h264': {
      if (Number(fmtp(a)['packetization-mode'] ?? 0) !== Number(fmtp(b)['packetization-mode'] ?? 0)) return false;
      const [pa, pb] = [h264Profile(a), h264Profile(b)];
      return exact ? pa === pb : h264Family(pa) === h264Family(pb);
    }
    case 'video/vp9':
      return Number(fmtp(a)['profile-id'] ?? 0) === Number(fmtp(b)['profile-id'] ?? 0);
    case 'video/av1':
      return Number(fmtp(a).profile ?? 0) === Number(fmtp(b).profile ?? 0);
    default:
      return true;
  }
}

/** The first of `candidates` that carries `codec`: an exact match first, else one of its family. */
function bestMatch(codec: Codec, candidates: Codec[]) {
  return candidates.find((c) => sameCodec(codec, c)) ?? candidates.find((c) => sameCodec(codec, c, false));
}

const carried = (codec: Codec) =>
  !isRtx(codec) && !isRed(codec) && [...CODECS.audio, ...CODECS.video].some((c) => mimeOf(c) === mimeOf(codec));

/** The RTX among `codecs` that repairs `primary` (its apt), as a list of zero or one. */
const rtxFor = (primary: Codec, codecs: Codec[]) =>
  codecs.filter((c) => isRtx(c) && Number(fmtp(c).apt) === primary.payloadType);

/** RED's codec list with the primary it wraps (RED's fmtp names its payload type), if `codecs` have both. */
function redWith(primary: Codec, codecs: Codec[]) {
  const red = codecs.find((c) => isRed(c) && Number((c.parameters ?? '').split('/')[0]) === primary.payloadType);
  return red ? [red, primary] : undefined;
}

/** What a publisher asked its track to be sent as (LiveKit's AddTrackRequest). */
export interface PublishPreference {
  /** The codec named first in `simulcastCodecs` ("h264", "vp9", …), if any. */
  codec?: string;
  /** Audio: RED unless the request set `disableRed`. */
  red: boolean;
}

/**
 * The codecs to answer a publisher's section with: one codec and its RTX (or RED with Opus), chosen
 * from what it offers; undefined when it offers nothing this server carries.
 */
export function publisherCodecs(offered: Codec[], preference: PublishPreference | undefined): Codec[] | undefined {
  const primaries = offered.filter(carried);
  const named = preference?.codec?.toLowerCase();
  const primary =
    (named && primaries.find((c) => mimeOf(c).split('/')[1] === named.replace(/^(audio|video)\//, ''))) || primaries[0];
  if (!primary) return undefined;
  if (mimeOf(primary) === 'audio/opus') return (preference?.red && redWith(primary, offered)) || [primary];
  return [primary, ...rtxFor(primary, offered)];
}

/** The codec a track is carried in: its primary, without RED or RTX. */
export const primaryCodec = (codecs: Codec[]) => codecs.find((c) => !isRtx(c) && !isRed(c));

/** A track's codecs: as its section was answered, or (a track this server did not answer for, ingress) as its media says. */
export const codecsOf = (track: { codecs?: Codec[]; media?: { codec?: Codec } }) =>
  track.codecs ?? (track.media?.codec ? [track.media.codec] : []);

/** The MIME type a track is announced with: RED's when it is carried in RED (as LiveKit reports it). */
export const announcedMimeType = (codecs: Codec[]) => (codecs.find(isRed) ?? primaryCodec(codecs))?.mimeType;

/**
 * v1: the codecs to answer a subscriber's receive section with, from what it offered, for a track
 * published as `published`: the same codec (its payload type and RTX), RED around Opus if both
 * sides have it; undefined when the subscriber cannot take it.
 */
export function subscriberCodecsFromOffer(published: Codec[], offered: Codec[]): Codec[] | undefined {
  const primary = primaryCodec(published);
  if (!primary) return undefined;
  const match = bestMatch(
    primary,
    offered.filter((c) => !isRtx(c) && !isRed(c)),
  );
  if (!match) return undefined;
  if (mimeOf(match) === 'audio/opus') return (published.some(isRed) && redWith(match, offered)) || [match];
  return [match, ...rtxFor(match, offered)];
}

/**
 * v0: the codecs to offer a subscriber for a track published as `published`: the publisher's own
 * codec and fmtp under this server's payload types (and RTX, RED as the publisher sends it).
 */
export function subscriberCodecsToOffer(published: Codec[]): Codec[] | undefined {
  const primary = primaryCodec(published);
  if (!primary) return undefined;
  const kind = mimeOf(primary).startsWith('audio/') ? CODECS.audio : CODECS.video;
  const ours = bestMatch(
    primary,
    kind.filter((c) => !isRtx(c) && !isRed(c)),
  );
  if (!ours) return undefined;
  const offered = new RTCRtpCodecParameters({ ...ours, parameters: primary.parameters ?? ours.parameters });
  if (mimeOf(ours) === 'audio/opus') return (published.some(isRed) && redWith(ours, kind)) || [offered];
  return [offered, ...rtxFor(ours, kind)];
}

/** The codecs of each audio and video section of `sdp`, by mid. */
export function offeredCodecs(sdp: string) {
  const byMid = new Map<string, Codec[]>();
  for (const media of SessionDescription.parse(sdp).media) {
    const mid = media.rtp.muxId;
    if (mid && (media.kind === 'audio' || media.kind === 'video')) byMid.set(mid, media.rtp.codecs);
  }
  return byMid;
}

/**
 * Sets the codecs a transceiver negotiates and sends with: the next answer or offer lists only
 * these, and its sender writes the first's payload type (and its RTX's on a retransmission).
 */
export function useCodecs(transceiver: RTCRtpTransceiver, codecs: Codec[], { publishing = false } = {}) {
  transceiver.codecs = codecs;
  // A publisher is asked for the dependency descriptor only where AV1 needs it: answered on every
  // video section a client sends in, it cost the Rust SDK its next publication (timed out waiting
  // for the server). A subscriber's sections keep it, so a section reused for AV1 has it already.
  if (publishing && !codecs.some((c) => mimeOf(c) === 'video/av1'))
    transceiver.headerExtensions = transceiver.headerExtensions.filter((e) => e.uri !== DEPENDENCY_DESCRIPTOR_URI);
  if (transceiver.mid == null) return;
  const sender = transceiver.sender;
  sender.prepareSend({
    codecs,
    muxId: transceiver.mid,
    headerExtensions: transceiver.headerExtensions,
    // The cname the last negotiation gave it (werift keeps it private).
    rtcp: { cname: (sender as unknown as { cname?: string }).cname, ssrc: sender.ssrc, mux: true },
  });
}
