/**
 * Sessions, attendance and presence from media-layer webhooks: joins, a reconnect whose new join
 * arrives before the old connection's left, duplicate deliveries (same and new webhook ids), a
 * left that arrives before its join, a room that ends with people in it, a left reported after
 * the end, and a second session after the room is used again — checked to the second.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
const who: Record<string, { id: string; mediaIdentity: string }> = {};

/** Whole seconds, as LiveKit sends them; the test's clock starts an hour ago. */
const T0 = Math.floor(Date.now() / 1000) - 3600;
const iso = (s: number) => new Date((T0 + s) * 1000).toISOString();
const hook = () => `${suite.app.baseUrl}/api/media/webhook`;

async function send(
  id: string,
  event: string,
  at: number,
  participant?: { name: string; sid: string; joinedAt?: number },
) {
  const body: Record<string, unknown> = {
    id,
    event,
    createdAt: String(T0 + at),
    room: { name: room.mediaRoomName, sid: 'RM_1' },
  };
  if (participant) {
    body.participant = {
      identity: who[participant.name].mediaIdentity,
      sid: participant.sid,
      ...(participant.joinedAt !== undefined ? { joinedAt: String(T0 + participant.joinedAt) } : {}),
    };
  }
  const res = await suite.media.sendWebhook(hook(), body);
  expect(res.status).toBe(200);
}
const get = (path: string, key = t.key) => suite.api('GET', path, { key });

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  other = await seedTenant({ plan: 'growth', name: 'Other' });
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u', name: 'Standup' } }))
    .body;
  for (const [name, role] of [
    ['ada', 'HOST'],
    ['bob', 'ATTENDEE'],
    ['carl', 'ATTENDEE'],
  ] as const) {
    const res = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: name, displayName: name.toUpperCase(), role },
    });
    expect(res.status).toBe(200);
    who[name] = res.body.participant;
  }
});

describe('sessions and attendance', () => {
  let sessionId: string;

  it('joins, a reconnect, duplicates and a left before its join give one live session with the right presence', async () => {
    await send('EV_start', 'room_started', 0);
    await send('EV_ada_j1', 'participant_joined', 10, { name: 'ada', sid: 'PA_a1', joinedAt: 10 });
    await send('EV_bob_j1', 'participant_joined', 20, { name: 'bob', sid: 'PA_b1', joinedAt: 20 });
    // The same join again: once with the same webhook id (a retry), once with a new one.
    await send('EV_bob_j1', 'participant_joined', 20, { name: 'bob', sid: 'PA_b1', joinedAt: 20 });
    await send('EV_bob_j1_dup', 'participant_joined', 21, { name: 'bob', sid: 'PA_b1', joinedAt: 20 });
    // carl's left (joined at 50, left at 200) arrives before his join.
    await send('EV_carl_l1', 'participant_left', 200, { name: 'carl', sid: 'PA_c1', joinedAt: 50 });
    // ada reconnects: the new connection's join arrives before the old one's left.
    await send('EV_ada_j2', 'participant_joined', 105, { name: 'ada', sid: 'PA_a2', joinedAt: 105 });
    await send('EV_ada_l1', 'participant_left', 100, { name: 'ada', sid: 'PA_a1', joinedAt: 10 });
    await send('EV_carl_j1', 'participant_joined', 50, { name: 'carl', sid: 'PA_c1', joinedAt: 50 });

    const presence = await get(`/api/v1/rooms/${room.id}/presence`);
    expect(presence.status).toBe(200);
    expect(presence.body.participants.map((p: { externalUserId: string }) => p.externalUserId).sort()).toEqual([
      'ada',
      'bob',
    ]);
    expect(
      presence.body.participants.find((p: { externalUserId: string }) => p.externalUserId === 'ada').connectedSince,
    ).toBe(iso(105));
    sessionId = presence.body.sessionId;
    expect(sessionId).toBeTruthy();

    const tenantPresence = await get('/api/v1/presence');
    expect(tenantPresence.body.data).toHaveLength(1);
    expect(tenantPresence.body.data[0]).toMatchObject({ roomId: room.id, sessionId });

    // Our own participant rows agree: ada stays connected through the reconnect, carl is not connected.
    const states = Object.fromEntries(
      (await db().participant.findMany({ where: { roomId: room.id } })).map((p) => [
        p.externalUserId,
        p.connectionState,
      ]),
    );
    expect(states).toEqual({ ada: 'CONNECTED', bob: 'CONNECTED', carl: 'DISCONNECTED' });
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).activeParticipants).toBe(2);

    const live = await get(`/api/v1/sessions/${sessionId}`);
    expect(live.body).toMatchObject({
      status: 'LIVE',
      startedAt: iso(0),
      endedAt: null,
      peakParticipants: 3,
      uniqueAttendees: 3,
    });
  });

  it('a room that ends with people in it closes their intervals at the end; the summary event is emitted once', async () => {
    await send('EV_bob_l1', 'participant_left', 300, { name: 'bob', sid: 'PA_b1', joinedAt: 20 });
    await send('EV_fin', 'room_finished', 600);
    await send('EV_fin_again', 'room_finished', 601);

    const res = await get(`/api/v1/sessions/${sessionId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: sessionId,
      roomId: room.id,
      status: 'ENDED',
      startedAt: iso(0),
      endedAt: iso(600),
      duration: 600,
      peakParticipants: 3,
      uniqueAttendees: 3,
    });
    const byUser = Object.fromEntries(
      res.body.attendance.map((a: { externalUserId: string }) => [a.externalUserId, a]),
    );
    expect(res.body.attendance.map((a: { externalUserId: string }) => a.externalUserId)).toEqual([
      'ada',
      'bob',
      'carl',
    ]);
    expect(byUser.ada).toMatchObject({
      displayName: 'ADA',
      role: 'HOST',
      connected: false,
      firstJoinedAt: iso(10),
      lastLeftAt: iso(600),
      totalSeconds: 90 + 495,
      intervals: [
        { joinedAt: iso(10), leftAt: iso(100), seconds: 90 },
        { joinedAt: iso(105), leftAt: iso(600), seconds: 495 },
      ],
    });
    expect(byUser.bob).toMatchObject({
      role: 'ATTENDEE',
      firstJoinedAt: iso(20),
      lastLeftAt: iso(300),
      totalSeconds: 280,
      intervals: [{ joinedAt: iso(20), leftAt: iso(300), seconds: 280 }],
    });
    expect(byUser.carl).toMatchObject({ firstJoinedAt: iso(50), lastLeftAt: iso(200), totalSeconds: 150 });

    const events = await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'room.session.ended' } });
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({
      sessionId,
      roomId: room.id,
      startedAt: iso(0),
      endedAt: iso(600),
      duration: 600,
      peakParticipants: 3,
      uniqueAttendees: 3,
    });

    expect((await get(`/api/v1/rooms/${room.id}/presence`)).body).toEqual({
      roomId: room.id,
      sessionId: null,
      participants: [],
    });
    expect((await get('/api/v1/presence')).body).toEqual({ data: [], nextCursor: null });
    // The participant's own duration sums its connections.
    expect((await db().participant.findUniqueOrThrow({ where: { id: who.ada.id } })).duration).toBe(585);
  });

  it('a left reported after the end, with an earlier time, corrects the interval; a straggler after the end changes nothing', async () => {
    await send('EV_ada_l2', 'participant_left', 550, { name: 'ada', sid: 'PA_a2', joinedAt: 105 });
    await send('EV_bob_late', 'participant_joined', 700, { name: 'bob', sid: 'PA_b9', joinedAt: 700 });
    const res = await get(`/api/v1/sessions/${sessionId}`);
    const ada = res.body.attendance.find((a: { externalUserId: string }) => a.externalUserId === 'ada');
    expect(ada).toMatchObject({ lastLeftAt: iso(550), totalSeconds: 90 + 445 });
    expect(
      res.body.attendance.find((a: { externalUserId: string }) => a.externalUserId === 'bob').intervals,
    ).toHaveLength(1);
    expect(await db().roomSession.count({ where: { roomId: room.id } })).toBe(1);
  });

  it('a room used again gets a new session; lists page by cursor and filter by time range', async () => {
    expect(
      (
        await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
          key: t.key,
          body: { externalUserId: 'ada', displayName: 'ADA' },
        })
      ).status,
    ).toBe(200);
    await send('EV_start2', 'room_started', 1000);
    await send('EV_ada_j3', 'participant_joined', 1010, { name: 'ada', sid: 'PA_a3', joinedAt: 1010 });
    await send('EV_ada_l3', 'participant_left', 1070, { name: 'ada', sid: 'PA_a3', joinedAt: 1010 });
    await send('EV_fin2', 'room_finished', 1100);

    const list = await get(`/api/v1/rooms/${room.id}/sessions`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { startedAt: string }) => s.startedAt)).toEqual([iso(1000), iso(0)]);
    expect(list.body.data[0]).toMatchObject({
      status: 'ENDED',
      duration: 100,
      peakParticipants: 1,
      uniqueAttendees: 1,
    });
    const second = await get(`/api/v1/sessions/${list.body.data[0].id}`);
    expect(second.body.attendance).toEqual([
      expect.objectContaining({
        externalUserId: 'ada',
        totalSeconds: 60,
        intervals: [{ joinedAt: iso(1010), leftAt: iso(1070), seconds: 60 }],
      }),
    ]);

    const first = await get(`/api/v1/rooms/${room.id}/sessions?limit=1`);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.nextCursor).toBeTruthy();
    const next = await get(`/api/v1/rooms/${room.id}/sessions?limit=1&cursor=${first.body.nextCursor}`);
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual([sessionId]);
    expect(next.body.nextCursor).toBeNull();

    const q = (from: number, to: number) =>
      get(`/api/v1/sessions?from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`);
    expect((await q(650, 900)).body.data).toEqual([]);
    expect((await q(500, 1001)).body.data.map((s: { startedAt: string }) => s.startedAt)).toEqual([iso(1000), iso(0)]);
    expect((await q(601, 2000)).body.data.map((s: { startedAt: string }) => s.startedAt)).toEqual([iso(1000)]);
    const bad = await get(`/api/v1/sessions?from=${encodeURIComponent(iso(10))}&to=${encodeURIComponent(iso(5))}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect((await get('/api/v1/sessions?from=yesterday')).status).toBe(400);
  });

  it('another tenant sees none of it', async () => {
    expect((await get(`/api/v1/sessions/${sessionId}`, other.key)).status).toBe(404);
    expect((await get(`/api/v1/rooms/${room.id}/sessions`, other.key)).status).toBe(404);
    expect((await get(`/api/v1/rooms/${room.id}/presence`, other.key)).status).toBe(404);
    expect((await get('/api/v1/sessions', other.key)).body.data).toEqual([]);
  });

  it('ending the room through the API closes the open session at that moment', async () => {
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'bob', displayName: 'BOB' },
    });
    const now = Math.floor(Date.now() / 1000) - T0;
    await send('EV_bob_j3', 'participant_joined', now - 30, { name: 'bob', sid: 'PA_b3', joinedAt: now - 30 });
    expect((await get(`/api/v1/rooms/${room.id}/presence`)).body.participants).toHaveLength(1);
    expect((await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: t.key })).status).toBe(200);
    const [latest] = (await get(`/api/v1/rooms/${room.id}/sessions`)).body.data;
    expect(latest.status).toBe('ENDED');
    const detail = (await get(`/api/v1/sessions/${latest.id}`)).body;
    expect(detail.attendance[0].totalSeconds).toBeGreaterThanOrEqual(30);
    expect(detail.attendance[0].totalSeconds).toBeLessThan(40);
    expect((await get(`/api/v1/rooms/${room.id}/presence`)).body.participants).toEqual([]);
  });
});
