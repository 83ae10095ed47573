/**
 * Signaling (LiveKit's RTC service): WebSocket upgrades on /rtc (v0) and /rtc/v1 (one peer
 * connection, the join request carrying the first offer). A refused upgrade is answered with
 * LiveKit's status, and the client then asks /rtc/validate (or /rtc/v1/validate) why.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { AccessToken } from 'livekit-server-sdk';
import { DisconnectReason, type JoinRequest, ParticipantInfo_Kind } from '@livekit/protocol';
import { type Authority, requestToken, TokenError } from './auth';
import { reasonOf, requestPath } from './log-text';
import type { Registry } from '../rtc/registry';
import { DevParticipant } from '../rtc/room-state';
import { SignalSession } from '../rtc/session';
import { decodeJoinRequest } from '../rtc/join-request';

/** Signaling messages: an SDP offer is the largest, tens of KB even with many tracks. */
const MAX_SIGNAL_MESSAGE_BYTES = 1024 * 1024;

export function createRtcService({
  apiKey,
  apiSecret,
  authority,
  registry,
  v1,
  stats,
  isDown,
  log,
}: {
  apiKey: string;
  apiSecret: string;
  authority: Authority;
  registry: Registry;
  /** false: no v1 signaling (`/rtc/v1` and its validate answer 404). */
  v1: boolean;
  /** Forwarding counters every session adds to. */
  stats: { rtpIn: number; rtpOut: number; forwardMs: number };
  /** The server plays dead: every upgrade is refused. */
  isDown: () => boolean;
  log: (msg: string) => void;
}) {
  /** A token for the same participant in another room (sent with a move). */
  const tokenFor = async (p: DevParticipant, room: string) => {
    const at = new AccessToken(apiKey, apiSecret, {
      identity: p.identity,
      name: p.name,
      metadata: p.metadata,
      ttl: 6 * 3600,
    });
    at.addGrant({
      roomJoin: true,
      room,
      canPublish: p.permission.canPublish,
      canSubscribe: p.permission.canSubscribe,
      canPublishData: p.permission.canPublishData,
      hidden: p.permission.hidden,
    });
    return at.toJwt();
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_SIGNAL_MESSAGE_BYTES });

  /** /rtc/validate and /rtc/v1/validate: why a refused upgrade was refused (the token, then the join request). */
  async function validate(req: http.IncomingMessage, res: http.ServerResponse, requestUrl: URL) {
    res.setHeader('access-control-allow-origin', '*');
    if (!v1 && requestUrl.pathname === '/rtc/v1/validate') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      await authority.joinGrant(requestToken(req.headers.authorization, requestUrl.searchParams));
    } catch (err) {
      const status = err instanceof TokenError ? err.status : 401;
      res.writeHead(status, { 'content-type': 'text/plain' }).end((err as Error).message);
      return;
    }
    // As LiveKit's v1 validate: the join request a refused upgrade carried says why (after the token).
    const joinRequestParam = requestUrl.searchParams.get('join_request');
    if (requestUrl.pathname === '/rtc/v1/validate' && joinRequestParam) {
      try {
        decodeJoinRequest(joinRequestParam);
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(reasonOf(err));
        return;
      }
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('success');
  }

  function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer) {
    // Until ws takes the socket over (and after, for a reset mid-handshake), its errors are ours.
    socket.on('error', (err) => log(`upgrade ${requestPath(req)}: ${reasonOf(err)}`));
    const refuse = (status: number, text: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
    };
    const requestUrl = new URL(req.url ?? '/', 'http://x');
    if (isDown() || (requestUrl.pathname !== '/rtc' && (requestUrl.pathname !== '/rtc/v1' || !v1)))
      return refuse(404, 'not found');
    // The token first: a stranger's join request is never read (decoding one costs far more than a
    // signature check).
    void authority
      .joinGrant(requestToken(req.headers.authorization, requestUrl.searchParams))
      .then(
        (grant) => {
          let joinRequest: JoinRequest | undefined;
          try {
            if (requestUrl.pathname === '/rtc/v1')
              joinRequest = decodeJoinRequest(requestUrl.searchParams.get('join_request'));
          } catch (err) {
            return refuse(400, reasonOf(err));
          }
          wss.handleUpgrade(req, socket, head, (ws) => {
            // A malformed or oversized frame closes this connection (ws answers 1002/1009) and is logged.
            ws.on('error', (err) => log(`signaling ${grant.identity}@${grant.room}: ${reasonOf(err)}`));
            if (requestUrl.searchParams.get('reconnect') === '1' || joinRequest?.reconnect) {
              // No session resumption here: ask for a full reconnect.
              ws.close();
              return;
            }
            const room = registry.open(grant.room);
            const existing = room.participants.get(grant.identity);
            if (existing?.link) existing.link.close(DisconnectReason.DUPLICATE_IDENTITY);
            else if (existing) registry.leave(room, existing, DisconnectReason.DUPLICATE_IDENTITY);
            const participant = new DevParticipant(
              grant.identity,
              grant.name,
              grant.metadata,
              { ...grant.attributes },
              {
                canPublish: grant.canPublish,
                canSubscribe: grant.canSubscribe,
                canPublishData: grant.canPublishData,
                canUpdateMetadata: grant.canUpdateOwnMetadata,
                canPublishSources: grant.canPublishSources,
                hidden: grant.hidden,
              },
            );
            if (grant.agent) participant.kind = ParticipantInfo_Kind.AGENT;
            const session = new SignalSession(ws, room, participant, { registry, log, tokenFor, stats }, joinRequest);
            participant.link = session;
            session.start();
          });
        },
        (err) => refuse(err instanceof TokenError ? err.status : 401, (err as Error).message),
      )
      // A failure while accepting one client (its session could not start) ends that client only.
      .catch((err) => {
        log(`signaling ${requestPath(req)}: ${reasonOf(err)}`);
        socket.destroy();
      });
  }

  return { wss, validate, upgrade };
}
