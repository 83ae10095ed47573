import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinPeople, type JoinedPerson } from '../support/rooms';
import { startSttServer } from '../support/stt-server';
import { db } from '@/lib/db';

/**
 * The meeting from the call (issue 45 item 11, and the end screen's rating): GET /me/meeting says
 * when it started and what a host could start — refused for the same reasons as the tenant API
 * (the room's switches, test mode, the plan) — and a host starts and stops recording and captions
 * with their own participant token through the tenant API's own starts; attendees cannot. After
 * the meeting a participant rates it 1–5, once per session, the latest kept.
 */
let stt: Awaited<ReturnType<typeof startSttServer>>;
const suite = useSuite({
  env: async () => {
    stt = await startSttServer('hello');
    return { STT_BASE_URL: stt.baseUrl };
  },
});
afterAll(() => stt?.close());
let growth: Awaited<ReturnType<typeof seedTenant>>;
let sandbox: Awaited<ReturnType<typeof seedTenant>>;
let noMinutes: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  growth = await seedTenant({ plan: 'growth' });
  sandbox = await seedTenant({ isTestMode: true });
  // A live tenant on the sandbox plan: no recording or caption minutes.
  noMinutes = await seedTenant({ plan: 'sandbox' });
});

const as = (person: JoinedPerson, method: 'GET' | 'POST', path: string, body?: unknown) =>
  suite.api(method, `/api/v1/me${path}`, { bearer: person.token, body });

async function meeting(key: string, settings: Record<string, unknown>) {
  const room = await createRoom(suite, key, { createdByExternalId: 'host', ...settings });
  const people = await joinPeople(suite, key, room.id, [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
  ]);
  await db().participant.updateMany({
    where: { id: { in: Object.values(people).map((p) => p.id) } },
    data: { connectionState: 'CONNECTED', joinedAt: new Date() },
  });
  return { room, ...people } as { room: { id: string }; host: JoinedPerson; amy: JoinedPerson };
}

describe('GET /me/meeting', () => {
  it('says what a host could start, refused for the reasons the tenant API would give', async () => {
    const off = await meeting(growth.key, {});
    expect((await as(off.amy, 'GET', '/meeting')).body).toMatchObject({
      roomId: off.room.id,
      recording: { active: false, blockedBy: 'FEATURE_DISABLED' },
      captions: { active: false, blockedBy: 'FEATURE_DISABLED' },
      transcribesRecordings: false,
    });
    const on = await meeting(growth.key, { enableRecording: true, enableAiFeatures: true });
    expect((await as(on.host, 'GET', '/meeting')).body).toMatchObject({
      recording: { active: false, blockedBy: null },
      captions: { active: false, blockedBy: null },
      transcribesRecordings: true,
    });
    const test = await meeting(sandbox.key, { enableRecording: true, enableAiFeatures: true });
    expect((await as(test.host, 'GET', '/meeting')).body).toMatchObject({
      recording: { blockedBy: 'TEST_MODE_MEDIA_DISABLED' },
      captions: { blockedBy: 'TEST_MODE_MEDIA_DISABLED' },
      transcribesRecordings: false,
    });
    const small = await meeting(noMinutes.key, { enableRecording: true, enableAiFeatures: true });
    expect((await as(small.host, 'GET', '/meeting')).body).toMatchObject({
      recording: { blockedBy: 'PLAN_LIMIT_REACHED' },
      captions: { blockedBy: 'PLAN_LIMIT_REACHED' },
    });
  });

  it('dates the meeting from its open session', async () => {
    const m = await meeting(growth.key, {});
    const startedAt = new Date(Date.now() - 90_000);
    await db().roomSession.create({ data: { tenantId: growth.tenant.id, roomId: m.room.id, startedAt } });
    expect((await as(m.amy, 'GET', '/meeting')).body.startedAt).toBe(startedAt.toISOString());
  });
});

describe('a host records and captions from the call', () => {
  it('starts and stops recording through the tenant API’s start; an attendee is refused', async () => {
    const m = await meeting(growth.key, { enableRecording: true });
    const refused = await as(m.amy, 'POST', '/recording', { active: true });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const started = await as(m.host, 'POST', '/recording', { active: true });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ roomId: m.room.id, status: 'STARTING', createdByExternalId: 'host' });
    expect((await as(m.amy, 'GET', '/meeting')).body.recording).toEqual({ active: true, blockedBy: null });
    const again = await as(m.host, 'POST', '/recording', { active: true });
    expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);
    const stopped = await as(m.host, 'POST', '/recording', { active: false });
    expect(stopped.body.status).toBe('STOPPING');
    const none = await as(m.host, 'POST', '/recording', { active: false });
    expect([none.status, none.body.error.code]).toEqual([409, 'INVALID_STATE']);
  });

  it('refuses a recording the room or the plan does not allow, with the tenant API’s codes', async () => {
    const off = await meeting(growth.key, {});
    const r = await as(off.host, 'POST', '/recording', { active: true });
    expect([r.status, r.body.error.code]).toEqual([403, 'FEATURE_DISABLED']);
    const test = await meeting(sandbox.key, { enableRecording: true });
    const t = await as(test.host, 'POST', '/recording', { active: true });
    expect([t.status, t.body.error.code]).toEqual([403, 'TEST_MODE_MEDIA_DISABLED']);
    const bad = await as(off.host, 'POST', '/recording', { active: 'yes' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('starts and stops captions; an attendee is refused; a room without AI features refuses', async () => {
    const m = await meeting(growth.key, { enableAiFeatures: true });
    const refused = await as(m.amy, 'POST', '/captions', { active: true });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const started = await as(m.host, 'POST', '/captions', { active: true, language: 'de' });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({
      roomId: m.room.id,
      active: true,
      language: 'de',
      startedByExternalId: 'host',
    });
    expect((await as(m.amy, 'GET', '/captions')).body.active).toBe(true);
    const stopped = await as(m.host, 'POST', '/captions', { active: false });
    expect(stopped.body.active).toBe(false);
    const none = await as(m.host, 'POST', '/captions', { active: false });
    expect([none.status, none.body.error.code]).toEqual([409, 'INVALID_STATE']);
    const off = await meeting(growth.key, {});
    const r = await as(off.host, 'POST', '/captions', { active: true });
    expect([r.status, r.body.error.code]).toEqual([403, 'FEATURE_DISABLED']);
  });
});

describe('POST /me/rating', () => {
  it('keeps one rating per participant and session, the latest; bounds 1–5; not for someone never in', async () => {
    const m = await meeting(growth.key, {});
    await db().roomSession.create({ data: { tenantId: growth.tenant.id, roomId: m.room.id, startedAt: new Date() } });
    for (const bad of [0, 6, 2.5, '5'])
      expect((await as(m.amy, 'POST', '/rating', { rating: bad })).body.error.code).toBe('VALIDATION_FAILED');
    const first = await as(m.amy, 'POST', '/rating', { rating: 2 });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ rating: 2 });
    expect((await as(m.amy, 'POST', '/rating', { rating: 4 })).body.rating).toBe(4);
    const rows = await db().meetingRating.findMany({ where: { participantId: m.amy.id } });
    expect(rows.map((r) => r.rating)).toEqual([4]);
    expect(rows[0].sessionId).toBe(first.body.sessionId);
    expect(first.body.sessionId).not.toBeNull();

    // Someone who never got in has no meeting to rate.
    const parked = await joinPeople(suite, growth.key, m.room.id, [['eve', 'ATTENDEE']]);
    const eve = await as(parked.eve, 'POST', '/rating', { rating: 5 });
    expect([eve.status, eve.body.error.code]).toEqual([409, 'INVALID_STATE']);
  });

  it('a removed participant may still rate (their end screen asks too)', async () => {
    const m = await meeting(growth.key, {});
    const removed = await suite.api('POST', `/api/v1/rooms/${m.room.id}/participants/${m.amy.id}/remove`, {
      key: growth.key,
    });
    expect(removed.status).toBe(200);
    expect((await as(m.amy, 'GET', '')).status).toBe(403);
    const rated = await as(m.amy, 'POST', '/rating', { rating: 1 });
    expect(rated.status, rated.text).toBe(200);
  });
});
