/**
 * One published track forwarded to one subscriber (LiveKit's DownTrack). RTP header extensions
 * are negotiated per peer connection, so the publisher's extension bytes mean nothing on the
 * subscriber's: each forwarded packet drops them and carries only what the subscriber negotiated,
 * under the subscriber's ids (werift's sender then adds the subscriber's mid itself). Forwarding
 * the publisher's bytes made libwebrtc read the audio level as a MID and drop the packet.
 */
import {
  ExtensionProfiles,
  RTP_EXTENSION_URI,
  RtpHeader,
  RtpPacket,
  type Extensions,
  type MediaStreamTrack,
  type RTCRtpTransceiver,
} from 'werift';
import { DEPENDENCY_DESCRIPTOR_URI } from './codecs';
import { beginsKeyFrame, knowsKeyFrames } from './keyframe';

interface AudioLevel {
  v: boolean;
  level: number;
}

/** The extensions of a forwarded packet, under the subscriber's negotiated ids. */
export function subscriberExtensions(subscriber: RTCRtpTransceiver, received: Extensions | undefined) {
  const idOf = (uri: string) => subscriber.headerExtensions.find((e) => e.uri === uri)?.id;
  const extensions: { id: number; payload: Buffer }[] = [];
  const audioLevel = received?.[RTP_EXTENSION_URI.audioLevelIndication] as AudioLevel | undefined;
  const audioLevelId = idOf(RTP_EXTENSION_URI.audioLevelIndication);
  if (audioLevel && audioLevelId !== undefined)
    extensions.push({
      id: audioLevelId,
      payload: Buffer.from([(audioLevel.v ? 0x80 : 0) | (audioLevel.level & 0x7f)]),
    });
  // The dependency descriptor, as its publisher wrote it (codecs.ts says why).
  const descriptor = received?.[DEPENDENCY_DESCRIPTOR_URI];
  const descriptorId = idOf(DEPENDENCY_DESCRIPTOR_URI);
  if (Buffer.isBuffer(descriptor) && descriptorId !== undefined)
    extensions.push({ id: descriptorId, payload: descriptor });
  return extensions;
}

/**
 * RFC 8285's one-byte form holds ids 1–14 and payloads of 1–16 bytes; a dependency descriptor
 * (its key frame's template structure) is often longer, and takes the two-byte form.
 */
const extensionProfile = (extensions: { id: number; payload: Buffer }[]) =>
  extensions.every((e) => e.id <= 14 && e.payload.length >= 1 && e.payload.length <= 16)
    ? ExtensionProfiles.OneByte
    : ExtensionProfiles.TwoByte;

export interface ForwardingStats {
  rtpOut: number;
  forwardMs: number;
}

/** When each transceiver last sent a forwarded packet: a section that takes another track continues from it. */
const lastSentAt = new WeakMap<RTCRtpTransceiver, number>();

/** A video subscription waits this long for a key frame it can tell before it forwards whatever comes. */
const KEY_FRAME_WAIT_MS = 3000;
/** While it waits, it asks the publisher for one this often (the first request may be lost or early). */
const KEY_FRAME_ASK_MS = 1000;
/**
 * A key frame that comes before the subscriber's transport is up is held for it this long at most,
 * in this many packets at most (a key frame and the frames after it): older, it goes out as a
 * burst of stale pictures; bigger, it is not a camera's. A new key frame replaces what is held.
 */
const HELD_KEY_FRAME_MAX_MS = 500;
const HELD_KEY_FRAME_MAX_PACKETS = 512;
/** A key frame asked for this recently is still on its way: asking again would be one more. */
const KEY_FRAME_IN_FLIGHT_MS = 300;

/** One track forwarded to one subscriber, as the session drives it (the key frame parts: video). */
export interface Forwarding {
  stop(): void;
  /**
   * Asks the publisher for a key frame to start on, unless the subscription has one (it
   * forwards, or holds a recent one for its transport) or asked moments ago.
   */
  askForStart(): void;
  /** The subscriber's transport is up: what is held for it goes out now, not with the next packet. */
  transportUp(): void;
}

/**
 * Forwards source's RTP to the subscriber's transceiver until stopped. Video starts at a key frame
 * (keyframe.ts): what comes before it cannot be decoded, and on a reused section would be decoded
 * against the last track's pictures; while it waits the publisher is asked for one
 * (`keyFrame.request`), and a codec whose key frames cannot be told starts at once.
 *
 * RTP sent before the subscriber's DTLS connects is dropped on the way, so a key frame that comes
 * earlier is held (with the frames after it) and goes out the moment the transport is up. The
 * session asks for it as ICE connects: the publisher's answer then travels while DTLS does, not
 * after it (50–190 ms of every join on a busy machine).
 */
export function forwardTrack(
  source: MediaStreamTrack,
  subscriber: RTCRtpTransceiver,
  stats: ForwardingStats,
  keyFrame?: { mimeType: string; request: () => void },
): Forwarding {
  // The wait counts from when the subscriber's transport is up.
  let waitFrom: number | undefined;
  let askedAt: number | undefined;
  let flowing = !keyFrame || !knowsKeyFrames(keyFrame.mimeType);
  let held: { at: number; packets: [RtpPacket, Extensions | undefined][] } | undefined;
  const transportConnected = () => subscriber.sender.dtlsTransport?.state === 'connected';
  const heldFresh = () => held !== undefined && performance.now() - held.at <= HELD_KEY_FRAME_MAX_MS;

  const send = (rtp: RtpPacket, received: Extensions | undefined) => {
    const started = performance.now();
    lastSentAt.set(subscriber, started);
    const extensions = subscriberExtensions(subscriber, received);
    const header = new RtpHeader({
      ...rtp.header,
      extension: false,
      extensionProfile: extensionProfile(extensions),
      extensions,
    });
    subscriber.sender.sendRtp(new RtpPacket(header, rtp.payload)).catch(() => undefined);
    stats.forwardMs += performance.now() - started;
    stats.rtpOut++;
  };
  /** Starts on the held key frame, if the transport is up and it is recent enough. */
  const release = () => {
    if (flowing || !held || !transportConnected()) return;
    const packets = heldFresh() ? held.packets : undefined;
    held = undefined;
    if (!packets) return;
    flowing = true;
    for (const [rtp, received] of packets) send(rtp, received);
  };
  const ask = () => {
    askedAt = performance.now();
    keyFrame?.request();
  };

  const subscription = source.onReceiveRtp.subscribe((rtp, received) => {
    if (!flowing) {
      const begins = beginsKeyFrame(keyFrame!.mimeType, rtp.payload) === true;
      if (!transportConnected()) {
        if (begins) held = { at: performance.now(), packets: [] };
        // Past either bound it is dropped, not kept growing: a subscriber whose DTLS never comes
        // holds at most half a second of one track.
        if (held && heldFresh() && held.packets.length < HELD_KEY_FRAME_MAX_PACKETS) held.packets.push([rtp, received]);
        else held = undefined;
        return;
      }
      release();
      if (!flowing) {
        const now = performance.now();
        waitFrom ??= now;
        flowing = begins || now - waitFrom > KEY_FRAME_WAIT_MS;
        if (!flowing) {
          if (now - (askedAt ?? waitFrom) > KEY_FRAME_ASK_MS) ask();
          return;
        }
      }
    }
    send(rtp, received);
  });
  return {
    stop: () => subscription.unSubscribe(),
    askForStart() {
      if (flowing || heldFresh()) return;
      if (askedAt !== undefined && performance.now() - askedAt < KEY_FRAME_IN_FLIGHT_MS) return;
      ask();
    },
    transportUp: release,
  };
}

/**
 * Before a section that carried another track sends a new one (v1 reuses receive sections): its
 * sequence numbers go on from the last track's, and its timestamps by the time passed since that
 * track's last packet, as LiveKit's forwarder does on a source switch. werift's own continuity
 * moves timestamps on by one tick, so a receiver read the first frames of a track sent seconds
 * later as due seconds earlier, and its jitter buffer held them back: the person already in saw
 * someone who joined on a reused section up to 2 s late.
 */
export function continueOnNewTrack(transceiver: RTCRtpTransceiver) {
  const sentAt = lastSentAt.get(transceiver);
  const clockRate = transceiver.sender.codec?.clockRate ?? (transceiver.kind === 'audio' ? 48000 : 90000);
  const elapsed = sentAt === undefined ? 0 : ((performance.now() - sentAt) / 1000) * clockRate;
  transceiver.sender.replaceRTP({ sequenceNumber: 0, timestamp: 0 }, false, Math.max(1, Math.round(elapsed)));
}
