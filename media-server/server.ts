/**
 * Convene's development media server: one Node process that speaks LiveKit's protocols — the
 * Twirp server API, signed webhooks, and WebRTC signaling (v1: `/rtc/v1`, one peer connection; v0:
 * `/rtc`, publisher + subscriber peer connections) with an SFU that forwards every published track as received — so the
 * unchanged livekit-server-sdk and livekit-client code runs a real call on one machine. It is the
 * media layer's embedded default and every test's media layer. It is not a production media
 * server: one process, no simulcast layers, no bandwidth estimation, no TURN.
 *
 * Tests also get an inspection and fault API on the handle (calls made, participants without a
 * browser, injected failures).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
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
import { createAuthority } from './service/auth';
import { createRegistry } from './rtc/registry';
import { DevParticipant, newSid } from './rtc/room-state';
import { createTwirpApi, METHODS, TwirpError } from './service/twirp';
import { createRecorder } from './egress/recorder';
import { createIngressService } from './ingress';
import { WHIP_LIMITS } from './ingress/whip';
import { createWebhookSender, signedWebhook } from './webhooks/sender';
import { createRtcService } from './service/rtc-service';
import { reasonOf, requestPath } from './service/log-text';

const MiB = 1024 * 1024;
/** How often every client hears everyone's connection quality (LiveKit: every few seconds). */
const QUALITY_INTERVAL_MS = 2000;
/** Twirp request bodies (JSON): the largest real one, an UpdateParticipant with metadata, is a few KB. */
const MAX_BODY_BYTES = MiB;

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
  /**
   * false: no v1 signaling, as a LiveKit server before it (`/rtc/v1` and its validate answer 404);
   * livekit-client then takes v0. For measuring and testing that path as the hosted UI meets it.
   */
  v1?: boolean;
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
  const v1 = opts.v1 ?? true;
  let webhookUrls = opts.webhookUrls ?? [];
  let departureTimeoutMs = opts.departureTimeoutMs ?? 20_000;
  let url = '';

  const authority = createAuthority(apiKey, apiSecret);
  const webhooks = createWebhookSender({ apiKey, apiSecret, urls: () => webhookUrls, log });
  const registry = createRegistry({ webhooks, departureTimeoutMs: () => departureTimeoutMs });
  const recorder = createRecorder({ registry, webhooks, log });
  const state = { ingresses: new Map<string, IngressInfo>(), dispatches: new Map<string, AgentDispatch>() };
  const ingress = createIngressService({
    registry,
    webhooks,
    log,
    ingresses: state.ingresses,
    host,
    httpUrl: () => url.replace(/^ws/, 'http'),
  });
  const twirp = createTwirpApi({ registry, authority, recorder, state, ingress });
  const stats = { rtpIn: 0, rtpOut: 0, forwardMs: 0 };
  const calls: RecordedCall[] = [];
  const failures = new Map<string, { status: number; code: string; msg: string }>();
  let down = false;

  const rtc = createRtcService({
    apiKey,
    apiSecret,
    authority,
    registry,
    v1,
    stats,
    isDown: () => down,
    log,
  });

  const server = http.createServer((req, res) => {
    // A client that goes away mid-request must cost its own request only.
    req.on('error', (err) => log(`request ${req.method} ${requestPath(req)}: ${reasonOf(err)}`));
    res.on('error', (err) => log(`response to ${req.method} ${requestPath(req)}: ${reasonOf(err)}`));
    // A WHIP offer has a bound of its own, far below the server API's.
    const maxBody = /^\/w(\/|$)/.test(requestPath(req)) ? WHIP_LIMITS.offerBytes : MAX_BODY_BYTES;
    const tooLarge = () => {
      // The rest of the body is never kept, only discarded while the client still sends: closing a
      // socket with unread bytes makes the kernel send a reset, and a reset makes the client's
      // kernel drop the answer it has not read yet. So no `connection: close` (Node would destroy
      // the socket as soon as the answer is written). A body read to its end leaves the connection
      // as any other, kept alive for the client's next request: ending it then raced that request
      // (fetch reuses the connection; "other side closed"). One that stalls for a moment, or is
      // still sending after a few seconds, ends it.
      res.writeHead(413, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 'resource_exhausted',
          msg: `request body over ${maxBody >= MiB ? `${maxBody / MiB} MiB` : `${maxBody / 1024} KiB`}`,
        }),
      );
      res.once('finish', () => {
        const socket = req.socket;
        const close = () => {
          clearTimeout(quiet);
          clearTimeout(latest);
          socket.end();
          setTimeout(() => socket.destroy(), 1000).unref();
        };
        const quiet = setTimeout(close, 1000).unref();
        const latest = setTimeout(close, 5000).unref();
        req.on('data', () => quiet.refresh());
        req.once('end', () => {
          clearTimeout(quiet);
          clearTimeout(latest);
        });
        req.resume();
      });
    };
    if (Number(req.headers['content-length'] ?? 0) > maxBody) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        req.pause();
        req.removeAllListeners('data').removeAllListeners('end');
        return tooLarge();
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      answer(req, res, Buffer.concat(chunks).toString('utf8')).catch((err) => {
        log(`${req.method} ${requestPath(req)}: ${reasonOf(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'internal', msg: reasonOf(err) }));
      }),
    );
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
    if (/^\/w(\/|$)/.test(requestUrl.pathname) && (await ingress.handleWhip(req, res, raw))) return;
    // What livekit-client asks after a failed WebSocket, to learn why.
    if (req.method === 'GET' && /^\/rtc(\/v1)?\/validate$/.test(requestUrl.pathname))
      return rtc.validate(req, res, requestUrl);
    if (req.method === 'GET' && requestUrl.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    const m = /^\/twirp\/livekit\.(\w+)\/(\w+)$/.exec(requestUrl.pathname);
    // Own properties only: `constructor` or `__proto__` are no methods of ours.
    if (!m || req.method !== 'POST' || !Object.hasOwn(METHODS, m[2]))
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
      if (e.status === 404) return reply(404, { code: 'not_found', msg: reasonOf(err) });
      log(`twirp ${method}: ${reasonOf(err)}`);
      reply(500, { code: 'internal', msg: reasonOf(err) });
    }
  }

  server.on('upgrade', rtc.upgrade);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  url = `ws://${host}:${port}`;
  const speakerTimer = setInterval(() => registry.updateSpeakers(), 300);
  speakerTimer.unref();
  const qualityTimer = setInterval(() => registry.updateConnectionQuality(), QUALITY_INTERVAL_MS);
  qualityTimer.unref();

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
      clearInterval(qualityTimer);
      ingress.close();
      recorder.close();
      for (const room of [...registry.rooms.values()]) {
        clearTimeout(room.closeTimer);
        for (const p of room.participants.values()) p.link?.close(DisconnectReason.SERVER_SHUTDOWN);
      }
      registry.rooms.clear();
      rtc.wss.close();
      // Each client was told (a leave, then a close frame); one that does not answer the close
      // within a second is cut off, so shutdown never waits on a hung or hostile client (ws
      // itself waits 30 s).
      const sockets = [...rtc.wss.clients];
      for (const ws of sockets) ws.close(1001, 'server shutdown');
      const deadline = Date.now() + 1000;
      while (sockets.some((ws) => ws.readyState !== ws.CLOSED) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      for (const ws of sockets) ws.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type DevMediaServer = Awaited<ReturnType<typeof startDevMediaServer>>;
