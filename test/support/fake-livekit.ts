/**
 * The project's fake media layer: a loopback node:http server speaking LiveKit's Twirp JSON
 * protocol, checking the same JWTs and grants as LiveKit, with rooms and participants in memory
 * and a log of every call. The product's real LiveKit code (livekit-server-sdk) talks to it.
 * Participants only exist once a client connects over WebRTC, which cannot happen here, so tests
 * add them with addParticipant().
 */
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { AccessToken, TokenVerifier } from 'livekit-server-sdk';

export interface FakeTrack {
  sid: string;
  type: 'AUDIO' | 'VIDEO';
  source?: 'CAMERA' | 'MICROPHONE' | 'SCREEN_SHARE';
  muted?: boolean;
}

export interface FakeParticipant {
  sid: string;
  identity: string;
  name: string;
  metadata: string;
  joinedAt: number;
  permission?: Record<string, unknown>;
  tracks: FakeTrack[];
}

export interface FakeRoom {
  sid: string;
  name: string;
  createdAt: number;
  participants: Map<string, FakeParticipant>;
}

export interface FakeCall {
  service: string;
  method: string;
  body: Record<string, any>;
  at: number;
}

type Grant = 'roomCreate' | 'roomList' | 'roomAdmin' | 'roomRecord' | 'ingressAdmin';
const METHODS: Record<string, { grant: Grant; needsRoom: boolean }> = {
  CreateRoom: { grant: 'roomCreate', needsRoom: false },
  ListRooms: { grant: 'roomList', needsRoom: false },
  DeleteRoom: { grant: 'roomCreate', needsRoom: false },
  ListParticipants: { grant: 'roomAdmin', needsRoom: true },
  GetParticipant: { grant: 'roomAdmin', needsRoom: true },
  RemoveParticipant: { grant: 'roomAdmin', needsRoom: true },
  MutePublishedTrack: { grant: 'roomAdmin', needsRoom: true },
  UpdateParticipant: { grant: 'roomAdmin', needsRoom: true },
  MoveParticipant: { grant: 'roomAdmin', needsRoom: true },
  SendData: { grant: 'roomAdmin', needsRoom: true },
  StartRoomCompositeEgress: { grant: 'roomRecord', needsRoom: false },
  StopEgress: { grant: 'roomRecord', needsRoom: false },
  ListEgress: { grant: 'roomRecord', needsRoom: false },
  CreateIngress: { grant: 'ingressAdmin', needsRoom: false },
  DeleteIngress: { grant: 'ingressAdmin', needsRoom: false },
  CreateDispatch: { grant: 'roomAdmin', needsRoom: true },
  DeleteDispatch: { grant: 'roomAdmin', needsRoom: true },
};

const sid = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

class TwirpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
  ) {
    super(msg);
  }
}

export async function startFakeLiveKit(opts: { apiKey?: string; apiSecret?: string; port?: number } = {}) {
  const apiKey = opts.apiKey ?? 'fakekey';
  const apiSecret = opts.apiSecret ?? `fakesecret-${randomBytes(12).toString('hex')}`;
  const verifier = new TokenVerifier(apiKey, apiSecret);
  const rooms = new Map<string, FakeRoom>();
  const calls: FakeCall[] = [];
  const egresses = new Map<string, { egressId: string; roomName: string; status: string; request: Record<string, any> }>();
  const ingresses = new Map<string, { ingressId: string; roomName: string; url: string; streamKey: string }>();
  const dispatches = new Map<string, { id: string; agentName: string; room: string; metadata: string }>();
  let down = false;
  const failures = new Map<string, { status: number; code: string; msg: string }>();

  const room = (name: string, create = false): FakeRoom => {
    let r = rooms.get(name);
    if (!r && create) {
      r = { sid: sid('RM'), name, createdAt: Math.floor(Date.now() / 1000), participants: new Map() };
      rooms.set(name, r);
    }
    if (!r) throw new TwirpError(404, 'not_found', `room ${name} not found`);
    return r;
  };
  const participant = (roomName: string, identity: string) => {
    const p = room(roomName).participants.get(identity);
    if (!p) throw new TwirpError(404, 'not_found', `participant ${identity} not found`);
    return p;
  };
  const participantJson = (p: FakeParticipant) => ({
    sid: p.sid,
    identity: p.identity,
    name: p.name,
    metadata: p.metadata,
    state: 'ACTIVE',
    joinedAt: String(p.joinedAt),
    permission: p.permission,
    tracks: p.tracks.map((t) => ({ sid: t.sid, type: t.type, source: t.source ?? (t.type === 'AUDIO' ? 'MICROPHONE' : 'CAMERA'), muted: !!t.muted })),
  });
  const roomJson = (r: FakeRoom) => ({ sid: r.sid, name: r.name, numParticipants: r.participants.size, creationTime: String(r.createdAt) });

  async function authorize(header: string | undefined, method: string, body: Record<string, any>) {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!token) throw new TwirpError(401, 'unauthenticated', 'missing token');
    let claims;
    try {
      claims = await verifier.verify(token, 60);
    } catch (err) {
      throw new TwirpError(401, 'unauthenticated', `invalid token: ${(err as Error).message}`);
    }
    const rule = METHODS[method];
    const video = (claims.video ?? {}) as Record<string, unknown>;
    if (!video[rule.grant]) throw new TwirpError(403, 'permission_denied', `${rule.grant} grant required`);
    if (rule.needsRoom && video.room !== body.room) throw new TwirpError(403, 'permission_denied', 'token is for another room');
  }

  function handle(method: string, body: Record<string, any>): unknown {
    switch (method) {
      case 'CreateRoom':
        return roomJson(room(body.name, true));
      case 'ListRooms':
        return { rooms: [...rooms.values()].filter((r) => !body.names?.length || body.names.includes(r.name)).map(roomJson) };
      case 'DeleteRoom':
        room(body.room);
        rooms.delete(body.room);
        return {};
      case 'ListParticipants':
        return { participants: [...room(body.room).participants.values()].map(participantJson) };
      case 'GetParticipant':
        return participantJson(participant(body.room, body.identity));
      case 'RemoveParticipant':
        participant(body.room, body.identity);
        room(body.room).participants.delete(body.identity);
        return {};
      case 'MutePublishedTrack': {
        const track = participant(body.room, body.identity).tracks.find((t) => t.sid === body.trackSid);
        if (!track) throw new TwirpError(404, 'not_found', 'track not found');
        track.muted = !!body.muted;
        return { track: { sid: track.sid, type: track.type, muted: track.muted } };
      }
      case 'UpdateParticipant': {
        const p = participant(body.room, body.identity);
        if (body.metadata !== undefined) p.metadata = body.metadata;
        if (body.permission !== undefined) p.permission = body.permission;
        if (body.name) p.name = body.name;
        return participantJson(p);
      }
      case 'MoveParticipant': {
        const p = participant(body.room, body.identity);
        room(body.room).participants.delete(body.identity);
        room(body.destinationRoom, true).participants.set(p.identity, p);
        return {};
      }
      case 'SendData':
        room(body.room);
        return {};
      case 'StartRoomCompositeEgress': {
        const egress = { egressId: sid('EG'), roomName: body.roomName, status: 'EGRESS_STARTING', request: body };
        egresses.set(egress.egressId, egress);
        return { egressId: egress.egressId, roomName: egress.roomName, status: egress.status };
      }
      case 'StopEgress': {
        const egress = egresses.get(body.egressId);
        if (!egress) throw new TwirpError(404, 'not_found', 'egress not found');
        egress.status = 'EGRESS_ENDING';
        return { egressId: egress.egressId, roomName: egress.roomName, status: egress.status };
      }
      case 'ListEgress':
        return { items: [...egresses.values()].filter((e) => !body.roomName || e.roomName === body.roomName).map((e) => ({ egressId: e.egressId, roomName: e.roomName, status: e.status })) };
      case 'CreateIngress': {
        const ingress = { ingressId: sid('IN'), roomName: body.roomName, url: body.inputType === 1 || body.inputType === 'WHIP_INPUT' ? 'https://127.0.0.1/w' : 'rtmp://127.0.0.1/live', streamKey: randomBytes(8).toString('hex') };
        ingresses.set(ingress.ingressId, ingress);
        return { ...ingress, name: body.name, participantIdentity: body.participantIdentity, participantName: body.participantName };
      }
      case 'DeleteIngress': {
        const ingress = ingresses.get(body.ingressId);
        if (!ingress) throw new TwirpError(404, 'not_found', 'ingress not found');
        ingresses.delete(body.ingressId);
        return { ingressId: ingress.ingressId };
      }
      case 'CreateDispatch': {
        const dispatch = { id: sid('AD'), agentName: body.agentName, room: body.room, metadata: body.metadata ?? '' };
        dispatches.set(dispatch.id, dispatch);
        return dispatch;
      }
      case 'DeleteDispatch': {
        const dispatch = dispatches.get(body.dispatchId);
        if (!dispatch) throw new TwirpError(404, 'not_found', 'dispatch not found');
        dispatches.delete(body.dispatchId);
        return dispatch;
      }
      default:
        throw new TwirpError(404, 'bad_route', `unknown method ${method}`);
    }
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (down) {
        req.socket.destroy(); // as if the server vanished mid-request
        return;
      }
      // What livekit-client asks after a failed websocket, to learn why: 401 for a refused token.
      const validate = /^\/rtc(?:\/v1)?\/validate\?/.exec(req.url ?? '');
      if (validate && req.method === 'GET') {
        const token = new URL(req.url!, 'http://x').searchParams.get('access_token') ?? '';
        res.setHeader('access-control-allow-origin', '*');
        try {
          await verifier.verify(token, 60);
          res.writeHead(200, { 'content-type': 'text/plain' }).end('success');
        } catch (err) {
          res.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid token: ${(err as Error).message}`);
        }
        return;
      }
      const m = /^\/twirp\/livekit\.(\w+)\/(\w+)$/.exec(req.url ?? '');
      if (!m || req.method !== 'POST' || !METHODS[m[2]]) return reply(404, { code: 'bad_route', msg: `no route ${req.url}` });
      const [, service, method] = m;
      let body: Record<string, any> = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return reply(400, { code: 'malformed', msg: 'bad json' });
      }
      try {
        await authorize(req.headers.authorization, method, body);
        calls.push({ service, method, body, at: Date.now() });
        const failure = failures.get(method);
        if (failure) {
          failures.delete(method);
          throw new TwirpError(failure.status, failure.code, failure.msg);
        }
        reply(200, handle(method, body));
      } catch (err) {
        if (err instanceof TwirpError) return reply(err.status, { code: err.code, msg: err.message });
        reply(500, { code: 'internal', msg: String(err) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    url: `ws://127.0.0.1:${port}`,
    httpUrl: `http://127.0.0.1:${port}`,
    apiKey,
    apiSecret,
    calls,
    rooms,
    egresses,
    ingresses,
    dispatches,
    /** Environment for an app process that should use this server. */
    env: () => ({ LIVEKIT_URL: `ws://127.0.0.1:${port}`, LIVEKIT_API_KEY: apiKey, LIVEKIT_API_SECRET: apiSecret }),
    callsTo: (method: string) => calls.filter((c) => c.method === method),
    addParticipant(roomName: string, p: { identity: string; name?: string; metadata?: string; tracks?: FakeTrack[] }) {
      const participant: FakeParticipant = {
        sid: sid('PA'),
        identity: p.identity,
        name: p.name ?? p.identity,
        metadata: p.metadata ?? '',
        joinedAt: Math.floor(Date.now() / 1000),
        tracks: (p.tracks ?? []).map((t) => ({ ...t, muted: !!t.muted })),
      };
      room(roomName, true).participants.set(p.identity, participant);
      return participant;
    },
    /** Every following call fails at the transport level until setDown(false). */
    setDown(value: boolean) {
      down = value;
    },
    failNext(method: string, failure = { status: 503, code: 'unavailable', msg: 'injected failure' }) {
      failures.set(method, failure);
    },
    /** Signs and POSTs a webhook exactly as LiveKit does. */
    async sendWebhook(targetUrl: string, event: Record<string, unknown>, signWith = { apiKey, apiSecret }) {
      const body = JSON.stringify({ id: sid('EV'), createdAt: String(Math.floor(Date.now() / 1000)), ...event });
      const token = new AccessToken(signWith.apiKey, signWith.apiSecret);
      token.sha256 = createHash('sha256').update(body).digest('base64');
      const res = await fetch(targetUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/webhook+json', authorization: await token.toJwt() },
        body,
      });
      return { status: res.status, body: await res.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeLiveKit = Awaited<ReturnType<typeof startFakeLiveKit>>;
