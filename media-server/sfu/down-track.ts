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

/** Forwards source's RTP to the subscriber's transceiver until the returned stop is called. */
export function forwardTrack(source: MediaStreamTrack, subscriber: RTCRtpTransceiver, stats: ForwardingStats) {
  const subscription = source.onReceiveRtp.subscribe((rtp, received) => {
    const started = performance.now();
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
