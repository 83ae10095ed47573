/**
 * The cross-tenant matrix: every tenant-key endpoint, called by tenant B with tenant A's ids,
 * answers 404 (or, for collections, shows none of A's data). The route files are enumerated, so
 * a new endpoint without a row here fails the suite until its isolation is covered.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinRoom } from '../support/rooms';
import { db } from '@/lib/db';

const suite = useSuite();
const root = path.resolve(import.meta.dirname, '../..');

function tenantRoutes(dir = path.join(root, 'app/api/v1')): { template: string; methods: string[] }[] {
  const out: { template: string; methods: string[] }[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tenantRoutes(full));
    else if (name === 'route.ts') {
      const source = readFileSync(full, 'utf8');
      // route({ tag, summary, auth: auth.tenant(...), ... }): the tag and summary come first.
      const methods = [
        ...source.matchAll(
          /export const (GET|POST|PATCH|PUT|DELETE) = route\(\s*\{\s*tag: '[^']*',\s*summary: ('[^']*'|"[^"]*"),\s*auth: auth\.tenant\(/g,
        ),
      ].map((m) => m[1]);
      const twoCredentials = /authenticateTenant\(/.test(source)
        ? [...source.matchAll(/export const (GET|POST|PATCH|PUT|DELETE) =/g)].map((m) => m[1])
        : [];
      const all = [...new Set([...methods, ...twoCredentials])];
      if (all.length)
        out.push({
          template: '/' + path.relative(path.join(root, 'app'), path.dirname(full)).split(path.sep).join('/'),
          methods: all,
        });
    }
  }
  return out;
}

type Ids = Record<string, string>;
/** Each tenant-key endpoint: the body to send. Collections (no id of A's in the path) are checked for leaks instead. */
const MATRIX: Record<string, unknown> = {
  'GET /api/v1/tenant': null,
  'GET /api/v1/tenant/keys': null,
  'POST /api/v1/tenant/keys/rotate': null,
  'GET /api/v1/tenant/usage': null,
  'PATCH /api/v1/tenant/webhook': null,
  'GET /api/v1/tenant/branding': null,
  'PATCH /api/v1/tenant/branding': null,
  'POST /api/v1/tenant/webhook-secret/rotate': null,
  'POST /api/v1/webhooks/test': null,
  'GET /api/v1/webhooks/deliveries': null,
  'GET /api/v1/webhooks/deliveries/[id]': {},
  'POST /api/v1/webhooks/deliveries/[id]/replay': {},
  'POST /api/v1/rooms': null,
  'GET /api/v1/rooms': null,
  'GET /api/v1/rooms/[id]': {},
  'PATCH /api/v1/rooms/[id]': { isLocked: true },
  'POST /api/v1/rooms/[id]/join': { externalUserId: 'intruder', displayName: 'I' },
  'POST /api/v1/rooms/[id]/reopen': {},
  'POST /api/v1/rooms/[id]/end': {},
  'POST /api/v1/rooms/[id]/mute-all': { actingExternalUserId: 'host' },
  'GET /api/v1/rooms/[id]/participants': {},
  'GET /api/v1/rooms/[id]/participants/[participantId]': {},
  'PATCH /api/v1/rooms/[id]/participants/[participantId]': { canPublish: false },
  'POST /api/v1/rooms/[id]/participants/[participantId]/approve': { actingExternalUserId: 'host' },
  'POST /api/v1/rooms/[id]/participants/[participantId]/deny': { actingExternalUserId: 'host' },
  'POST /api/v1/rooms/[id]/participants/[participantId]/remove': {},
  'GET /api/v1/rooms/[id]/participants/[participantId]/admission': {},
  'GET /api/v1/rooms/[id]/breakouts': {},
  'POST /api/v1/rooms/[id]/breakouts': { name: 'b', createdByExternalId: 'host' },
  'POST /api/v1/rooms/[id]/breakouts/[breakoutId]/close': { actingExternalUserId: 'host' },
  'POST /api/v1/rooms/[id]/breakouts/[breakoutId]/move': {
    actingExternalUserId: 'host',
    participantId: '{participantId}',
  },
  'POST /api/v1/calls': null,
  'GET /api/v1/calls': null,
  'GET /api/v1/calls/[id]': {},
  'POST /api/v1/calls/[id]/ring': { agentExternalId: 'x' },
  'POST /api/v1/calls/[id]/accept': { acceptedByExternalId: 'x', acceptedByDisplayName: 'X' },
  'POST /api/v1/calls/[id]/forward': { forwardedByExternalId: 'x', forwardedToExternalId: 'y' },
  'POST /api/v1/calls/[id]/cancel': {},
  'POST /api/v1/calls/[id]/miss': {},
  'POST /api/v1/calls/[id]/end': {},
  'POST /api/v1/polls': {
    roomId: '{roomId}',
    createdByExternalId: 'host',
    question: 'q',
    options: ['a', 'b'],
    __expect404: true,
  },
  'GET /api/v1/polls': { __query: '?roomId={roomId}', __expect404: true },
  'GET /api/v1/polls/[id]': {},
  'POST /api/v1/polls/[id]/open': { actorExternalId: 'host' },
  'POST /api/v1/polls/[id]/vote': { voterExternalId: 'host', optionIds: ['{optionId}'] },
  'POST /api/v1/polls/[id]/close': { actorExternalId: 'host' },
  'POST /api/v1/questions': { roomId: '{roomId}', text: 'q', askerExternalId: 'host', __expect404: true },
  'GET /api/v1/questions': { __query: '?roomId={roomId}', __expect404: true },
  'GET /api/v1/questions/[id]': {},
  'POST /api/v1/questions/[id]/upvote': { voterExternalId: 'host' },
  'POST /api/v1/questions/[id]/answer': { answerText: 'a', answeredByExternalId: 'host' },
  'POST /api/v1/questions/[id]/dismiss': { actorExternalId: 'host' },
  'POST /api/v1/rooms/[id]/recordings/start': {},
  'POST /api/v1/rooms/[id]/recordings/stop': {},
  'GET /api/v1/recordings': { __query: '?roomId={roomId}', __expect404: true },
  'GET /api/v1/recordings/[id]': {},
  'DELETE /api/v1/recordings/[id]': {},
  'POST /api/v1/recordings/[id]/stop': {},
  'GET /api/v1/recordings/[id]/download': {},
  'POST /api/v1/streaming/start': {
    roomId: '{roomId}',
    urls: ['rtmp://live.example.com/app/key123'],
    __expect404: true,
  },
  'GET /api/v1/streaming/[id]': {},
  'POST /api/v1/streaming/[id]/stop': {},
  'POST /api/v1/ingress': {
    roomId: '{roomId}',
    name: 'n',
    participantIdentity: 'i',
    participantName: 'n',
    createdByExternalId: 'x',
    __expect404: true,
  },
  'GET /api/v1/ingress/[id]': {},
  'DELETE /api/v1/ingress/[id]': {},
  'POST /api/v1/captions/start': { roomId: '{roomId}', __expect404: true },
  'POST /api/v1/captions/stop': { roomId: '{roomId}', __expect404: true },
  'GET /api/v1/captions/status/[roomId]': {},
  'GET /api/v1/recordings/[id]/transcripts': {},
  'GET /api/v1/transcripts/[id]': {},
  'GET /api/v1/transcripts': { __query: '?roomId={roomId}' },
  'POST /api/v1/transcripts': { recordingIds: ['{recordingId}'], __expect404: true },
  'GET /api/v1/transcripts/[id]/summaries': {},
  'POST /api/v1/transcripts/[id]/summaries': { kind: 'general' },
  'GET /api/v1/summaries/[id]': {},
  'GET /api/v1/summaries/settings': null,
  'PUT /api/v1/summaries/settings': null,
  'GET /api/v1/sessions/[id]/quality': {},
  'GET /api/v1/rooms/[id]/sessions': {},
  'GET /api/v1/rooms/[id]/presence': {},
  'GET /api/v1/rooms/[id]/chat': {},
  'DELETE /api/v1/rooms/[id]/chat': {},
  'GET /api/v1/sessions': { __query: '?roomId={roomId}' },
  'GET /api/v1/sessions/[id]': {},
  'GET /api/v1/presence': null,
};

let a: Awaited<ReturnType<typeof seedTenant>>;
let b: Awaited<ReturnType<typeof seedTenant>>;
const ids: Record<string, Ids> = {};

beforeAll(async () => {
  a = await seedTenant({ name: 'Tenant A', plan: 'growth' });
  b = await seedTenant({ name: 'Tenant B', plan: 'growth' });
  const room = await createRoom(suite, a.key, {
    createdByExternalId: 'host',
    name: 'A-secret-room',
    enableWaitingRoom: true,
  });
  await joinRoom(suite, a.key, room.id, { externalUserId: 'host', displayName: 'Host', role: 'HOST' });
  const waiting = (await joinRoom(suite, a.key, room.id, { externalUserId: 'guest', displayName: 'Guest' }))
    .participant;
  const breakout = (
    await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
      key: a.key,
      body: { name: 'A-breakout', createdByExternalId: 'host' },
    })
  ).body;
  const event = await db().event.create({
    data: { id: 'evt_matrix_a', tenantId: a.tenant.id, name: 'webhook.test', data: {}, occurredAt: new Date() },
  });
  const delivery = await db().webhookDelivery.create({
    data: {
      tenantId: a.tenant.id,
      eventId: event.id,
      eventName: 'webhook.test',
      url: 'https://a.example.com/hook',
      status: 'FAILED',
    },
  });
  const call = (
    await suite.api('POST', '/api/v1/calls', { key: a.key, body: { callerExternalId: 'c', callerDisplayName: 'C' } })
  ).body;
  const poll = (
    await suite.api('POST', '/api/v1/polls', {
      key: a.key,
      body: { roomId: room.id, createdByExternalId: 'host', question: 'A-poll', options: ['x', 'y'], status: 'OPEN' },
    })
  ).body;
  const question = (
    await suite.api('POST', '/api/v1/questions', {
      key: a.key,
      body: { roomId: room.id, text: 'A-question', askerExternalId: 'host' },
    })
  ).body;
  ids.rooms = {
    id: room.id,
    roomId: room.id,
    participantId: waiting.id,
    breakoutId: breakout.id,
    optionId: poll.options[0].id,
  };
  ids.webhooks = { id: delivery.id };
  ids.calls = { id: call.id };
  ids.polls = { id: poll.id, roomId: room.id, optionId: poll.options[0].id };
  ids.questions = { id: question.id, roomId: room.id };
  const recording = await db().recording.create({
    data: {
      tenantId: a.tenant.id,
      roomId: room.id,
      mediaEgressId: 'EG_matrix',
      storageKey: 'recordings/x.mp4',
      status: 'COMPLETED',
    },
  });
  const stream = await db().stream.create({
    data: { tenantId: a.tenant.id, roomId: room.id, mediaEgressId: 'EG_matrix_s', destinations: [], status: 'ACTIVE' },
  });
  const ingress = await db().ingressEndpoint.create({
    data: {
      tenantId: a.tenant.id,
      roomId: room.id,
      mediaIngressId: 'IN_matrix',
      name: 'n',
      participantIdentity: 'i',
      participantName: 'n',
      createdByExternalId: 'x',
    },
  });
  const session = await db().roomSession.create({
    data: { tenantId: a.tenant.id, roomId: room.id, startedAt: new Date() },
  });
  await db().sessionConnection.create({
    data: {
      sessionId: session.id,
      tenantId: a.tenant.id,
      roomId: room.id,
      participantId: waiting.id,
      connectionKey: 'sid:PA_matrix',
      joinedAt: new Date(),
    },
  });
  await db().chatMessage.create({
    data: {
      tenantId: a.tenant.id,
      roomId: room.id,
      senderParticipantId: waiting.id,
      senderExternalId: 'guest',
      senderName: 'Guest',
      text: 'A-chat',
    },
  });
  ids.sessions = { id: session.id, roomId: room.id };
  ids.recordings = { id: recording.id, roomId: room.id };
  ids.streaming = { id: stream.id, roomId: room.id };
  ids.ingress = { id: ingress.id, roomId: room.id };
  ids.captions = { roomId: room.id };
  const transcript = await db().transcript.create({
    data: { tenantId: a.tenant.id, recordingId: recording.id, roomId: room.id, status: 'COMPLETED', text: 'A-secret' },
  });
  ids.transcripts = { id: transcript.id, roomId: room.id, recordingId: recording.id };
  ids.summaries = {
    id: (
      await db().summary.create({
        data: { tenantId: a.tenant.id, roomId: room.id, transcriptId: transcript.id, kind: 'general' },
      })
    ).id,
  };
});

describe('tenant isolation matrix', () => {
  it('covers every tenant-key route file', () => {
    const routes = tenantRoutes().flatMap((r) => r.methods.map((m) => `${m} ${r.template}`));
    const missing = routes.filter((r) => !(r in MATRIX));
    const stale = Object.keys(MATRIX).filter((k) => !routes.includes(k));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it("tenant B gets 404 for every one of tenant A's resources, and sees none of A's data in collections", async () => {
    const leaks: string[] = [];
    for (const [entry, body] of Object.entries(MATRIX)) {
      const [method, template] = entry.split(' ');
      const family = ids[template.split('/')[3]] ?? ids.rooms;
      const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => family[name] ?? ids.rooms[name]);
      const { __query, __expect404, ...payload } = (body ?? {}) as { __query?: string; __expect404?: boolean };
      const path = template.replace(/\[(\w+)\]/g, (_, name: string) => family[name]) + fill(__query ?? '');
      const sent = body ? JSON.parse(fill(JSON.stringify(payload))) : {};
      const res = await suite.api(method, path, { key: b.key, body: method === 'GET' ? undefined : sent });
      if (template.includes('[') || __expect404) {
        if (res.status !== 404) leaks.push(`${entry} → ${res.status}`);
      } else if (
        /A-secret|A-breakout|A-poll|A-question|A-chat|evt_matrix_a|Tenant A/.test(res.text) ||
        res.text.includes(a.tenant.id) ||
        res.text.includes(ids.rooms.id)
      ) {
        leaks.push(`${entry} shows tenant A's data`);
      }
    }
    expect(leaks).toEqual([]);
    // And nothing of A's changed.
    const room = await db().room.findUniqueOrThrow({ where: { id: ids.rooms.id } });
    expect(room).toMatchObject({ isLocked: false, status: 'WAITING' });
    expect((await db().participant.findUniqueOrThrow({ where: { id: ids.rooms.participantId } })).connectionState).toBe(
      'WAITING',
    );
    expect(await db().chatMessage.count({ where: { roomId: ids.rooms.id } })).toBe(1);
  });
});
