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

interface AudioLevel {
  v: boolean;
  level: number;
}

/** The extensions of a forwarded packet, under the subscriber's negotiated ids. */
export function subscriberExtensions(subscriber: RTCRtpTransceiver, received: Extensions | undefined) {
  const audioLevel = received?.[RTP_EXTENSION_URI.audioLevelIndication] as AudioLevel | undefined;
  if (!audioLevel) return [];
  const id = subscriber.headerExtensions.find((e) => e.uri === RTP_EXTENSION_URI.audioLevelIndication)?.id;
  if (id === undefined) return [];
  return [{ id, payload: Buffer.from([(audioLevel.v ? 0x80 : 0) | (audioLevel.level & 0x7f)]) }];
}

export interface ForwardingStats {
  rtpOut: number;
  forwardMs: number;
}

/** When each transceiver last sent a forwarded packet: a section that takes another track continues from it. */
const lastSentAt = new WeakMap<RTCRtpTransceiver, number>();

/** Forwards source's RTP to the subscriber's transceiver until the returned stop is called. */
export function forwardTrack(source: MediaStreamTrack, subscriber: RTCRtpTransceiver, stats: ForwardingStats) {
  const subscription = source.onReceiveRtp.subscribe((rtp, received) => {
    const started = performance.now();
    lastSentAt.set(subscriber, started);
    const extensions = subscriberExtensions(subscriber, received);
    const header = new RtpHeader({
      ...rtp.header,
      extension: false,
      // RFC 8285's one-byte form: every extension written here is short.
      extensionProfile: ExtensionProfiles.OneByte,
      extensions,
    });
    subscriber.sender.sendRtp(new RtpPacket(header, rtp.payload)).catch(() => undefined);
    stats.forwardMs += performance.now() - started;
    stats.rtpOut++;
  });
  return () => subscription.unSubscribe();
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
