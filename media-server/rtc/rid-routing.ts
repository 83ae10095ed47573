import {
  type RTCPeerConnection,
  type RTCRtpReceiver,
  RTP_EXTENSION_URI,
  type RtpPacket,
  rtpHeaderExtensionsParser,
} from 'werift';

/** The parts of werift's RTP router this reads and writes (not in its typings). */
interface Router {
  routeRtp: (packet: RtpPacket) => void;
  ridTable: Record<string, RTCRtpReceiver | undefined>;
  ssrcTable: Record<number, unknown>;
  extIdUriMap: Record<number, string>;
}

/**
 * werift routes a simulcast layer by its rid alone (one `ridTable` for the whole connection), but a
 * rid names a layer within its own section: a camera and a screen share both keep layer "h", and
 * the section negotiated last took the other's packets. Chromium's camera then reached everyone
 * as the screen share (while its own tile froze) whenever it sent the rid again, as it does after
 * each renegotiation. A packet that names its section (the MID extension, sent with the rid) goes
 * to that section's receiver; one that names only a rid goes to the receiver its SSRC was
 * learnt for.
 */
export function routeLayersBySection(pc: RTCPeerConnection) {
  const router = (pc as unknown as { router: Router }).router;
  const route = router.routeRtp;
  router.routeRtp = (packet) => {
    const extensions = rtpHeaderExtensionsParser(packet.header.extensions, router.extIdUriMap);
    const rid = extensions[RTP_EXTENSION_URI.sdesRTPStreamID];
    if (typeof rid === 'string') {
      const mid = extensions[RTP_EXTENSION_URI.sdesMid];
      const owner =
        typeof mid === 'string'
          ? pc.getTransceivers().find((t) => t.mid === mid)?.receiver
          : (router.ssrcTable[packet.header.ssrc] as RTCRtpReceiver | undefined);
      if (owner && router.ridTable[rid] !== owner && rid in (owner as unknown as { trackByRID: object }).trackByRID)
        router.ridTable[rid] = owner;
    }
    route(packet);
  };
}
