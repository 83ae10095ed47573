/**
 * WHIP ingress (RFC 9725) as LiveKit serves it: the publisher POSTs its SDP offer to `{url}` with
 * the stream key as `Authorization: Bearer` (or to `{url}/{streamKey}`), gets the answer with a
 * Location for its session, and DELETEs that to stop. One werift peer connection per session;
 * VP8 and Opus only, as everywhere on this server, so the tracks are forwarded as received.
 *
 * An offer is checked before anything is allocated for it: an SDP body (application/sdp) of at
 * most WHIP_LIMITS.offerBytes (the server reads no more), with at least one and at most
 * WHIP_LIMITS.mediaSections media sections — every section of a WHIP offer is a track to publish,
 * so no more than signaling lets a participant publish. Without BUNDLE each section is a transport
 * of its own (sockets): counting first is what keeps a thousand-section offer from costing any.
 */
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { RTCPeerConnection } from 'werift';
import type { IngressInfo } from '@livekit/protocol';
import { type IngressContext, IngressPublisher } from './publisher';
import { answerAsDtlsServer } from '../rtc/answer';
import { iceOptions } from '../rtc/ice';
import { SESSION_LIMITS } from '../rtc/limits';
import { CODECS } from '../sfu/codecs';

export const WHIP_LIMITS = {
  /** An offer's bytes: a browser's offer with 32 sections and every codec is about 100 KB. */
  offerBytes: 128 * 1024,
  /** Media sections in one offer: the tracks a participant may publish over signaling. */
  mediaSections: SESSION_LIMITS.tracksPerParticipant,
};

/** Where a session is stopped: its random id only (the stream key never travels in a Location). */
const SESSION_PATH = /^\/w\/sessions\/([0-9a-f]{32})$/;

interface WhipSession {
  pc: RTCPeerConnection;
  publisher: IngressPublisher;
  ingressId: string;
}

/** Why `offer` is refused before any peer connection exists for it, or undefined. */
function offerRefusal(offer: string): string | undefined {
  if (!/^v=0\r?\n/.test(offer)) return 'the body is not an SDP offer (it must start with v=0)';
  const sections = offer.split(/\r?\nm=/).length - 1;
  if (!sections) return 'the offer has no media section';
  if (sections > WHIP_LIMITS.mediaSections)
    return `an offer of ${sections} media sections (at most ${WHIP_LIMITS.mediaSections})`;
  return undefined;
}

export function createWhipEndpoint(ctx: IngressContext, findByStreamKey: (key: string) => IngressInfo | undefined) {
  const sessions = new Map<string, WhipSession>();

  function end(resourceId: string) {
    const session = sessions.get(resourceId);
    if (!session) return;
    sessions.delete(resourceId);
    session.publisher.end();
    void session.pc.close();
  }

  async function start(info: IngressInfo, offer: string) {
    // One publisher per ingress at a time: a new session replaces the previous one.
    for (const [id, s] of sessions) if (s.ingressId === info.ingressId) end(id);
    const pc = new RTCPeerConnection({ codecs: CODECS, ...iceOptions() });
    const publisher = new IngressPublisher(info, ctx);
    const resourceId = randomBytes(16).toString('hex');
    sessions.set(resourceId, { pc, publisher, ingressId: info.ingressId });
    pc.ontrack = ({ track, transceiver }) => {
      let lastRequest = 0;
      publisher.addTrack(track, () => {
        const ssrc = track.ssrc ?? track.header?.ssrc;
        if (ssrc === undefined || Date.now() - lastRequest < 500) return;
        lastRequest = Date.now();
        transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
      });
    };
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed') end(resourceId);
    });
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      await answerAsDtlsServer(pc);
    } catch (err) {
      end(resourceId);
      throw err;
    }
    // No trickle: the answer carries every candidate (werift gathers host candidates at once).
    if (pc.iceGatheringState !== 'complete')
      await pc.iceGatheringStateChange.watch((s) => s === 'complete', 5000).catch(() => undefined);
    return { resourceId, answer: pc.localDescription!.sdp };
  }

  /** Answers a request under /w; false when the path is not WHIP's. */
  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://x');
    const session = SESSION_PATH.exec(url.pathname);
    const m = session ? undefined : /^\/w(?:\/([^/]+))?$/.exec(url.pathname);
    if (!session && !m) return false;
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, DELETE, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-expose-headers': 'location',
    };
    const text = (status: number, msg: string) =>
      res.writeHead(status, { ...cors, 'content-type': 'text/plain' }).end(msg);
    if (req.method === 'OPTIONS') return (res.writeHead(204, cors).end(), true);
    if (session) {
      // The session's random id (128 bits) is what stops it, as its Location is all a client keeps.
      if (req.method !== 'DELETE') return (text(405, 'DELETE the session to stop'), true);
      if (!sessions.has(session[1])) return (text(404, 'no such WHIP session'), true);
      end(session[1]);
      return (text(200, 'ended'), true);
    }
    const streamKey = m![1] ?? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const info = findByStreamKey(streamKey);
    if (!info) return (text(401, 'unknown stream key'), true);
    if (req.method !== 'POST') return (text(405, 'POST an SDP offer to start, DELETE the session to stop'), true);
    if (!/^application\/sdp\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
      return (text(415, 'application/sdp expected'), true);
    const refusal = offerRefusal(body);
    if (refusal) {
      ctx.log(`whip ${info.ingressId}: refused ${refusal}`);
      return (text(400, `bad offer: ${refusal}`), true);
    }
    try {
      const { resourceId, answer } = await start(info, body);
      res
        .writeHead(201, { ...cors, 'content-type': 'application/sdp', location: `/w/sessions/${resourceId}` })
        .end(answer);
    } catch (err) {
      ctx.log(`whip ${info.ingressId}: ${(err as Error).message}`);
      text(400, `bad offer: ${(err as Error).message}`);
    }
    return true;
  }

  return {
    handle,
    /** Ends the ingress's session, if one runs (DeleteIngress). */
    endIngress(ingressId: string) {
      for (const [id, s] of sessions) if (s.ingressId === ingressId) end(id);
    },
    close() {
      for (const id of [...sessions.keys()]) end(id);
    },
  };
}
