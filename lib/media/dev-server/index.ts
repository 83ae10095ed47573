/**
 * Convene's development media server: one Node process that speaks LiveKit's protocols — the
 * Twirp server API, signed webhooks, and WebRTC signaling (v0: `/rtc`, publisher + subscriber
 * peer connections) with an SFU that forwards every published track as received — so the
 * unchanged livekit-server-sdk and livekit-client code runs a real call on one machine. It is the
 * media layer's embedded default and every test's media layer. It is not a production media
 * server: one process, no simulcast layers, no bandwidth estimation, no TURN.
 *
 * Tests also get an inspection and fault API on the handle (calls made, participants without a
 * browser, injected failures).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';
import { AccessToken } from 'livekit-server-sdk';
import {
  DisconnectReason,
  EgressInfo,
  EgressStatus,
  Encryption_Type,
  TrackSource,
  TrackType,
  type AgentDispatch,
  type IngressInfo,
} from '@livekit/protocol';
import { createAuthority, TokenError } from './auth';
import { createRegistry } from './registry';
import { DevParticipant, newSid } from './room-state';
import { SignalSession } from './session';
import { createTwirpApi, METHODS, TwirpError } from './twirp';
import { createRecorder } from './egress';
import { createWebhookSender, signedWebhook } from './webhooks';

interface DevMediaServerOptions {
  apiKey?: string;
  apiSecret?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Where media-layer webhooks go (Convene's /api/media/webhook); none by default. */
  webhookUrls?: string[];
  /** How long an empty room stays open before room_finished (LiveKit's departure timeout, 20 s). */
  departureTimeoutMs?: number;
  log?: (msg: string) => void;
}

interface RecordedCall {
  service: string;
  method: string;
  body: Record<string, any>;
  at: number;
}

interface TestTrack {
  sid: string;
  type: 'AUDIO' | 'VIDEO';
  source?: 'CAMERA' | 'MICROPHONE' | 'SCREEN_SHARE';
  muted?: boolean;
}

export async function startDevMediaServer(opts: DevMediaServerOptions = {}) {
  const apiKey = opts.apiKey ?? `dev_${randomBytes(6).toString('hex')}`;
  const apiSecret = opts.apiSecret ?? randomBytes(24).toString('base64url');
  const log = opts.log ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  let webhookUrls = opts.webhookUrls ?? [];
  let departureTimeoutMs = opts.departureTimeoutMs ?? 20_000;
  let url = '';

  const authority = createAuthority(apiKey, apiSecret);
  const webhooks = createWebhookSender({ apiKey, apiSecret, urls: () => webhookUrls, log });
  const registry = createRegistry({ webhooks, departureTimeoutMs: () => departureTimeoutMs });
  const recorder = createRecorder({ registry, webhooks, log });
  const state = { ingresses: new Map<string, IngressInfo>(), dispatches: new Map<string, AgentDispatch>() };
  const twirp = createTwirpApi({ registry, authority, recorder, state, publicHost: () => url });
  const stats = { rtpIn: 0, rtpOut: 0, forwardMs: 0 };
  const calls: RecordedCall[] = [];
  const failures = new Map<string, { status: number; code: string; msg: string }>();
  let down = false;

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

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => void answer(req, res, raw));
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const reply = (status: number, payload: unknown) => {
      // Exactly application/json: the SDK reads a Twirp error's code only with that content type.
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (down) {
      req.socket.destroy(); // as if the server vanished mid-request
      return;
    }
    const requestUrl = new URL(req.url ?? '/', 'http://x');
    // What livekit-client asks after a failed WebSocket, to learn why.
    if (req.method === 'GET' && /^\/rtc(\/v1)?\/validate$/.test(requestUrl.pathname)) {
      res.setHeader('access-control-allow-origin', '*');
      const token = requestUrl.searchParams.get('access_token') ?? '';
      try {
        await authority.joinGrant(token);
      } catch (err) {
        const status = err instanceof TokenError ? err.status : 401;
        res.writeHead(status, { 'content-type': 'text/plain' }).end((err as Error).message);
        return;
      }
      // v1 (single peer connection) is not offered here: 404 makes the client use v0.
      if (requestUrl.pathname.startsWith('/rtc/v1'))
        res.writeHead(404, { 'content-type': 'text/plain' }).end('v1 signaling is not supported by this server');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('success');
      return;
    }
    if (req.method === 'GET' && requestUrl.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    const m = /^\/twirp\/livekit\.(\w+)\/(\w+)$/.exec(requestUrl.pathname);
    if (!m || req.method !== 'POST' || !METHODS[m[2]])
      return reply(404, { code: 'bad_route', msg: `no route ${req.url}` });
    const [, service, method] = m;
    let body: Record<string, any> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return reply(400, { code: 'malformed', msg: 'bad json' });
    }
    try {
      await twirp.authorize(req.headers.authorization, method, body);
      calls.push({ service, method, body, at: Date.now() });
      const failure = failures.get(method);
      if (failure) {
        failures.delete(method);
        throw new TwirpError(failure.status, failure.code, failure.msg);
      }
      reply(200, await twirp.handle(method, body));
    } catch (err) {
      if (err instanceof TwirpError) return reply(err.status, { code: err.code, msg: err.message });
      const e = err as { status?: number; code?: string; message?: string };
      if (e.status === 404) return reply(404, { code: 'not_found', msg: e.message });
      log(`twirp ${method}: ${e.message}`);
      reply(500, { code: 'internal', msg: String(e.message ?? err) });
    }
  }

  // Signaling: WebSocket upgrades on /rtc. A refused upgrade is answered with LiveKit's status, and
  // the client then asks /rtc/validate why.
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const refuse = (status: number, text: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
    };
    const requestUrl = new URL(req.url ?? '/', 'http://x');
    if (down || requestUrl.pathname !== '/rtc') return refuse(404, 'not found');
    void authority.joinGrant(requestUrl.searchParams.get('access_token') ?? '').then(
      (grant) => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          if (requestUrl.searchParams.get('reconnect') === '1') {
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
          const session = new SignalSession(ws, room, participant, { registry, log, tokenFor, stats });
          participant.link = session;
          session.start();
        });
      },
      (err) => refuse(err instanceof TokenError ? err.status : 401, (err as Error).message),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  url = `ws://${host}:${port}`;
  const speakerTimer = setInterval(() => registry.updateSpeakers(), 300);
  speakerTimer.unref();

  const egressView = (info: EgressInfo, request: Record<string, unknown>) => ({
    get egressId() {
      return info.egressId;
    },
    get roomName() {
      return info.roomName;
    },
    get status() {
      return EgressStatus[info.status];
    },
    request,
  });

  return {
    url,
    httpUrl: `http://${host}:${port}`,
    apiKey,
    apiSecret,
    calls,
    /** Live rooms by name. */
    rooms: registry.rooms,
    /** Egress jobs by id, with the request that started each. */
    get egresses() {
      return new Map(recorder.jobs().map(({ info, request }) => [info.egressId, egressView(info, request)]));
    },
    get ingresses() {
      return state.ingresses;
    },
    get dispatches() {
      return new Map(
        [...state.dispatches].map(([id, d]) => [
          id,
          { id: d.id, agentName: d.agentName, room: d.room, metadata: d.metadata },
        ]),
      );
    },
    webhooksSent: webhooks.sent,
    /** RTP packets received and forwarded so far, and the time spent forwarding them. */
    stats: () => ({ ...stats }),
    /** Environment for an app process that should use this server. */
    env: () => ({ LIVEKIT_URL: url, LIVEKIT_API_KEY: apiKey, LIVEKIT_API_SECRET: apiSecret }),
    callsTo: (method: string) => calls.filter((c) => c.method === method),
    setWebhookUrls(urls: string[]) {
      webhookUrls = urls;
    },
    setDepartureTimeout(ms: number) {
      departureTimeoutMs = ms;
    },
    /** A participant without a browser (no media, no signaling), as if one had joined. */
    addParticipant(roomName: string, p: { identity: string; name?: string; metadata?: string; tracks?: TestTrack[] }) {
      const room = registry.open(roomName);
      const participant = new DevParticipant(
        p.identity,
        p.name ?? p.identity,
        p.metadata ?? '',
        {},
        {
          canPublish: true,
          canSubscribe: true,
          canPublishData: true,
          canUpdateMetadata: false,
          canPublishSources: [],
          hidden: false,
        },
      );
      for (const t of p.tracks ?? []) {
        const audio = t.type === 'AUDIO';
        participant.tracks.set(t.sid, {
          sid: t.sid,
          cid: t.sid,
          type: audio ? TrackType.AUDIO : TrackType.VIDEO,
          source: TrackSource[t.source ?? (audio ? 'MICROPHONE' : 'CAMERA')],
          name: '',
          muted: !!t.muted,
          width: 0,
          height: 0,
          mimeType: audio ? 'audio/opus' : 'video/VP8',
          encryption: Encryption_Type.NONE,
          stream: '',
        });
      }
      registry.join(room, participant);
      return participant;
    },
    /** Every following request fails at the transport level until setDown(false). */
    setDown(value: boolean) {
      down = value;
    },
    failNext(method: string, failure = { status: 503, code: 'unavailable', msg: 'injected failure' }) {
      failures.set(method, failure);
    },
    /** Signs and POSTs a webhook exactly as LiveKit does (for events a test makes up). */
    async sendWebhook(targetUrl: string, event: Record<string, unknown>, signWith = { apiKey, apiSecret }) {
      const body = JSON.stringify({ id: newSid('EV'), createdAt: String(Math.floor(Date.now() / 1000)), ...event });
      const res = await fetch(targetUrl, {
        method: 'POST',
        headers: await signedWebhook(body, signWith.apiKey, signWith.apiSecret),
        body,
      });
      return { status: res.status, body: await res.text() };
    },
    /** Resolves once every queued webhook has been delivered (or given up). */
    webhooksIdle: () => webhooks.idle(),
    async close() {
      clearInterval(speakerTimer);
      for (const room of [...registry.rooms.values()]) {
        clearTimeout(room.closeTimer);
        for (const p of room.participants.values()) p.link?.close(DisconnectReason.SERVER_SHUTDOWN);
      }
      registry.rooms.clear();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type DevMediaServer = Awaited<ReturnType<typeof startDevMediaServer>>;
