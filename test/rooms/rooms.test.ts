import { beforeAll, describe, expect, it } from 'vitest';
import { TokenVerifier } from 'livekit-server-sdk';
import { useSuite, seedTenant } from '../support/suite';
import type pg from 'pg';
import type { Participant, Tenant } from '@/lib/generated/prisma/client';
import { db, sql } from '@/lib/db';
import { assertSeatFree, joinStatement } from '@/lib/domain/participants';
import { joinInput } from '@/lib/domain/rooms.schemas';
import { startWebhookReceiver } from '../support/webhook-receiver';

const suite = useSuite();
type Seeded = Awaited<ReturnType<typeof seedTenant>>;
let acme: Seeded;
let other: Seeded;

beforeAll(async () => {
  acme = await seedTenant({ name: 'Acme', plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  other = await seedTenant({ name: 'Other' });
});

/**
 * Rows of a table ($1) the current transaction has read so far, as PostgreSQL counts them for it
 * (the counters are the connection's not yet reported to the statistics system: read before and after).
 */
const ROWS_READ_SQL = `SELECT coalesce(sum(coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0)), 0)::int AS n
  FROM pg_stat_xact_user_tables WHERE relname = $1 AND schemaname = current_schema()`;
const rowsReadOn = async (client: pg.PoolClient, table: string) =>
  (await client.query<{ n: number }>(ROWS_READ_SQL, [table])).rows[0].n;

/** The join's one statement, on a connection the test chose (rows read, locks held). */
const joinOn = (
  client: pg.PoolClient,
  tenant: Tenant,
  roomId: string,
  input: Record<string, unknown>,
  knownRoomVersion: string | null = null,
) =>
  client.query<{
    r: { outcome: string; roomVersion?: string; room?: { name: string }; participants?: { displayName: string }[] };
  }>(
    joinStatement(
      { tenant, roomId, input: joinInput.parse({ displayName: 'Test', ...input }), now: new Date() },
      { knownRoomVersion },
    ),
  );

const createRoom = (body: Record<string, unknown> = {}, key = acme.key) =>
  suite.api('POST', '/api/v1/rooms', { key, body: { createdByExternalId: 'u_owner', name: 'Standup', ...body } });
const join = (roomId: string, body: Record<string, unknown>, key = acme.key) =>
  suite.api('POST', `/api/v1/rooms/${roomId}/join`, { key, body: { displayName: 'Ada', ...body } });

describe('rooms', () => {
  it('creates a room with defaults and every accepted field', async () => {
    const res = await createRoom({
      maxParticipants: 25,
      enableRecording: true,
      enableWaitingRoom: false,
      enableChat: false,
      recordingPreset: 'H264_1080P_30',
      autoRecord: true,
      externalId: 'crm-1',
      externalType: 'deal',
      externalMetadata: { owner: 7 },
      scheduledAt: '2030-01-01T10:00:00Z',
      autoEndAt: '2030-01-01T11:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Standup',
      type: 'SCHEDULED',
      status: 'WAITING',
      maxParticipants: 25,
      enableRecording: true,
      enableChat: false,
      enableScreenShare: true,
      isLocked: false,
      autoRecord: true,
      recordingPreset: 'H264_1080P_30',
      reopenCount: 0,
      activeParticipants: 0,
      externalMetadata: { owner: 7 },
      scheduledAt: '2030-01-01T10:00:00.000Z',
      createdByExternalId: 'u_owner',
      tenantId: acme.tenant.id,
    });
    expect(res.body.mediaRoomName).toMatch(/^cv_/);
    expect(res.body.slug).toMatch(/^standup-/);
  });

  it('recordingPreset defaults to H264_720P_30, accepts only egress encoding presets, and is never null', async () => {
    const plain = await createRoom();
    expect(plain.body.recordingPreset).toBe('H264_720P_30');
    for (const bad of ['speaker', 'h264_720p_30', 'PASSTHROUGH', '', null, 7]) {
      const refused = await createRoom({ recordingPreset: bad });
      expect([refused.status, refused.body.error.code, refused.body.error.details[0].field]).toEqual([
        400,
        'VALIDATION_FAILED',
        'recordingPreset',
      ]);
    }
    const patched = await suite.api('PATCH', `/api/v1/rooms/${plain.body.id}`, {
      key: acme.key,
      body: { recordingPreset: 'PORTRAIT_H264_720P_60' },
    });
    expect(patched.body.recordingPreset).toBe('PORTRAIT_H264_720P_60');
    expect(
      (await suite.api('PATCH', `/api/v1/rooms/${plain.body.id}`, { key: acme.key, body: { recordingPreset: null } }))
        .status,
    ).toBe(400);
    expect((await suite.api('GET', `/api/v1/rooms/${plain.body.id}`, { key: acme.key })).body.recordingPreset).toBe(
      'PORTRAIT_H264_720P_60',
    );
  });

  it('refuses bad input with VALIDATION_FAILED naming the field', async () => {
    const missing = await suite.api('POST', '/api/v1/rooms', { key: acme.key, body: { name: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    expect(missing.body.error.details[0].field).toBe('createdByExternalId');
    const wrongType = await createRoom({ maxParticipants: 'ten', enableChat: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'enableChat',
      'maxParticipants',
    ]);
    expect((await createRoom({ autoEndAt: '2000-01-01T00:00:00Z' })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await createRoom({ enableE2EE: true, enableAiFeatures: true })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await createRoom({ name: 'x'.repeat(201) })).status).toBe(400);
  });

  it('malformed JSON, wrong content type and oversize bodies are 400 / 415 / 413', async () => {
    const bad = await suite.api('POST', '/api/v1/rooms', {
      key: acme.key,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_JSON']);
    const form = await suite.api('POST', '/api/v1/rooms', {
      key: acme.key,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const big = await createRoom({ externalMetadata: { blob: 'x'.repeat(70_000) } });
    expect([big.status, big.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await db().room.count({ where: { tenantId: acme.tenant.id, name: 'x' } })).toBe(0);
  });

  it('enforces the plan: maxParticipants above the plan and too many open rooms are PLAN_LIMIT_REACHED', async () => {
    expect((await createRoom({ maxParticipants: 201 })).body.error.code).toBe('PLAN_LIMIT_REACHED');
    const small = await seedTenant({ entitlementOverrides: { concurrentLiveRooms: 2 } });
    expect((await createRoom({}, small.key)).status).toBe(201);
    expect((await createRoom({}, small.key)).status).toBe(201);
    const third = await createRoom({}, small.key);
    expect([third.status, third.body.error.code]).toEqual([403, 'PLAN_LIMIT_REACHED']);
  });

  it('the open-room limit holds under 30 concurrent creations, and an ended room frees its slot (kept by a trigger, whoever changes the status)', async () => {
    const t = await seedTenant({ entitlementOverrides: { concurrentLiveRooms: 5, apiRequestsPerSecond: 1000 } });
    const results = await Promise.all(Array.from({ length: 30 }, () => createRoom({}, t.key)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(
      results
        .filter((r) => r.status !== 201)
        .every((r) => r.status === 403 && r.body.error.code === 'PLAN_LIMIT_REACHED'),
    ).toBe(true);
    expect(await db().room.count({ where: { tenantId: t.tenant.id } })).toBe(5);
    const [first, second] = results.filter((r) => r.status === 201).map((r) => r.body.id as string);
    // Ended through the API, and behind the API's back (a job or a manual UPDATE): each frees a slot.
    expect((await suite.api('POST', `/api/v1/rooms/${first}/end`, { key: t.key })).status).toBe(200);
    await db().room.update({ where: { id: second }, data: { status: 'ENDED' } });
    expect((await createRoom({}, t.key)).status).toBe(201);
    expect((await createRoom({}, t.key)).status).toBe(201);
    expect((await createRoom({}, t.key)).body.error.code).toBe('PLAN_LIMIT_REACHED');
    // Reopening counts again; a deleted open room no longer does.
    expect((await suite.api('POST', `/api/v1/rooms/${first}/reopen`, { key: t.key })).status).toBe(200);
    expect(await db().tenantRoomCount.findUnique({ where: { tenantId: t.tenant.id } })).toMatchObject({ openRooms: 6 });
    await db().room.delete({ where: { id: first } });
    expect(await db().tenantRoomCount.findUnique({ where: { tenantId: t.tenant.id } })).toMatchObject({ openRooms: 5 });
  }, 60_000);

  it('lists rooms newest first with filters and cursor pagination', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createRoom({ externalId: i % 2 ? 'odd' : 'even' }, t.key)).body.id);
    const first = await suite.api('GET', '/api/v1/rooms?limit=2', { key: t.key });
    expect(first.body.data.map((r: { id: string }) => r.id)).toEqual([ids[4], ids[3]]);
    const second = await suite.api('GET', `/api/v1/rooms?limit=2&cursor=${first.body.nextCursor}`, { key: t.key });
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    const third = await suite.api('GET', `/api/v1/rooms?limit=2&cursor=${second.body.nextCursor}`, { key: t.key });
    expect(third.body).toMatchObject({ data: [{ id: ids[0] }], nextCursor: null });
    const odd = await suite.api('GET', '/api/v1/rooms?externalId=odd', { key: t.key });
    expect(odd.body.data.map((r: { id: string }) => r.id)).toEqual([ids[3], ids[1]]);
    expect((await suite.api('GET', '/api/v1/rooms?status=BOGUS', { key: t.key })).status).toBe(400);
    expect((await suite.api('GET', '/api/v1/rooms?limit=500', { key: t.key })).status).toBe(400);
    for (const bad of [
      'nope',
      Buffer.from(JSON.stringify([5, '2030-01-01T00:00:00.000Z', 'x'])).toString('base64url'),
      Buffer.from(JSON.stringify(['not a date', 'x'])).toString('base64url'),
    ]) {
      const res = await suite.api('GET', `/api/v1/rooms?cursor=${bad}`, { key: t.key });
      expect([res.status, res.body.error.details?.[0]?.field]).toEqual([400, 'cursor']);
    }
  });

  it('gets, patches and locks a room; another tenant gets 404 everywhere', async () => {
    const room = (await createRoom()).body;
    const got = await suite.api('GET', `/api/v1/rooms/${room.id}`, { key: acme.key });
    expect(got.body).toMatchObject({ id: room.id, participants: [] });
    const patched = await suite.api('PATCH', `/api/v1/rooms/${room.id}`, {
      key: acme.key,
      body: { isLocked: true, name: 'Renamed', enableChat: false },
    });
    expect(patched.body).toMatchObject({ isLocked: true, name: 'Renamed', enableChat: false });
    for (const [method, path, body] of [
      ['GET', `/api/v1/rooms/${room.id}`],
      ['PATCH', `/api/v1/rooms/${room.id}`, { isLocked: false }],
      ['POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'x', displayName: 'X' }],
      ['POST', `/api/v1/rooms/${room.id}/end`],
      ['POST', `/api/v1/rooms/${room.id}/reopen`],
      ['POST', `/api/v1/rooms/${room.id}/mute-all`, { actingExternalUserId: 'x' }],
      ['GET', `/api/v1/rooms/${room.id}/participants`],
      ['GET', `/api/v1/rooms/${room.id}/breakouts`],
      ['POST', `/api/v1/rooms/${room.id}/breakouts`, { name: 'b', createdByExternalId: 'x' }],
    ] as const) {
      const res = await suite.api(method, path, { key: other.key, body });
      expect([path, res.status, res.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await suite.api('GET', '/api/v1/rooms/does-not-exist', { key: acme.key })).status).toBe(404);
  });

  it('every Room response carries its present participants in join order, at most 10; the list endpoint has the rest', async () => {
    const created = await createRoom({ maxParticipants: 100 });
    expect(created.body.participants).toEqual([]);
    const room = created.body;
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push((await join(room.id, { externalUserId: `p${i}` })).body.participant.id);
    const joined = await join(room.id, { externalUserId: 'p15' });
    expect(joined.body.room.participants).toHaveLength(10);
    expect(joined.body.room.participants[0]).toMatchObject({
      id: ids[0],
      externalUserId: 'p0',
      connectionState: 'PENDING',
    });
    // Those who were removed or left are not in the room any more.
    expect(
      (await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${ids[0]}/remove`, { key: acme.key })).status,
    ).toBe(200);
    await db().participant.update({
      where: { id: ids[1] },
      data: { connectionState: 'DISCONNECTED', leftAt: new Date() },
    });
    const listed = (await suite.api('GET', `/api/v1/rooms/${room.id}`, { key: acme.key })).body.participants.map(
      (p: { externalUserId: string }) => p.externalUserId,
    );
    expect(listed).toEqual(Array.from({ length: 10 }, (_, i) => `p${i + 2}`));
    const patched = await suite.api('PATCH', `/api/v1/rooms/${room.id}`, { key: acme.key, body: { name: 'Renamed' } });
    expect(patched.body.participants.map((p: { externalUserId: string }) => p.externalUserId)).toEqual(listed);
    const page = (await suite.api('GET', `/api/v1/rooms?limit=100`, { key: acme.key })).body.data.find(
      (r: { id: string }) => r.id === room.id,
    );
    expect(page.participants.map((p: { externalUserId: string }) => p.externalUserId)).toEqual(listed);
    // The list endpoint pages through every participant, those who left included.
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: { id: string }[]; nextCursor: string | null } } = await suite.api(
        'GET',
        `/api/v1/rooms/${room.id}/participants?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
        { key: acme.key },
      );
      all.push(...res.body.data.map((p) => p.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(all).toHaveLength(16);
  });

  it('a join answers with the room as it is now; the database sends the room again only when one of its rows changed', async () => {
    const room = (await createRoom({ maxParticipants: 100 })).body;
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: room.tenantId } });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await join(room.id, { externalUserId: `p${i}` })).body.participant.id);
    const current = async () => (await suite.api('GET', `/api/v1/rooms/${room.id}`, { key: acme.key })).body;
    // Joins past the first ten leave the room's Room unchanged: each answers with it, exactly.
    for (const externalUserId of ['p12', 'p13']) {
      expect((await join(room.id, { externalUserId })).body.room).toEqual(await current());
    }

    // The statement: nothing of the room for a caller holding its version, all of it otherwise.
    const client = await sql().connect();
    try {
      const first = (await joinOn(client, tenant, room.id, { externalUserId: 'v1' })).rows[0].r;
      expect(first.room?.name).toBe('Standup');
      expect(first.participants).toHaveLength(10);
      const version = first.roomVersion!;
      const again = (await joinOn(client, tenant, room.id, { externalUserId: 'v2' }, version)).rows[0].r;
      expect(again).toMatchObject({ outcome: 'ok', roomVersion: version });
      expect(again.room).toBeUndefined();
      expect(again.participants).toBeUndefined();
      // A listed participant written behind the app's back (any writer): a new version, sent in full.
      await db().participant.update({ where: { id: ids[3] }, data: { displayName: 'Grace' } });
      const changed = (await joinOn(client, tenant, room.id, { externalUserId: 'v3' }, version)).rows[0].r;
      expect(changed.roomVersion).not.toBe(version);
      expect(changed.participants?.[3].displayName).toBe('Grace');
      // The room itself written: the same.
      await db().$executeRaw`UPDATE "Room" SET name = 'Retro' WHERE id = ${room.id}`;
      const renamed = (await joinOn(client, tenant, room.id, { externalUserId: 'v4' }, changed.roomVersion!)).rows[0].r;
      expect(renamed.room?.name).toBe('Retro');
    } finally {
      client.release();
    }

    // Through the API, each change shows in the next join's room.
    let joined = (await join(room.id, { externalUserId: 'p14' })).body.room;
    expect(joined.name).toBe('Retro');
    expect(joined.participants[3].displayName).toBe('Grace');
    expect(joined).toEqual(await current());
    await db().participant.update({
      where: { id: ids[0] },
      data: { connectionState: 'DISCONNECTED', leftAt: new Date() },
    });
    joined = (await join(room.id, { externalUserId: 'p15' })).body.room;
    expect(joined.participants.map((p: { externalUserId: string }) => p.externalUserId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `p${i + 1}`),
    );
    expect(joined).toEqual(await current());
  });

  it("a Room response reads a room's first few participants, never all of them: a webinar of 3,000 whose statistics lag", async () => {
    // Statistics that describe small meetings, as a database has them while one webinar fills
    // faster than they follow: planned from these alone, the read sorted the whole room each time.
    for (let m = 0; m < 5; m++) {
      const meeting = (await createRoom()).body;
      for (let i = 0; i < 4; i++) await join(meeting.id, { externalUserId: `small_${m}_${i}` });
    }
    await db().$executeRawUnsafe('ANALYZE "Participant"');
    const webinars = await seedTenant({
      name: 'Webinars',
      entitlementOverrides: { maxParticipantsPerRoom: 5000, apiRequestsPerSecond: 1000 },
    });
    const room = (await createRoom({ maxParticipants: 5000 }, webinars.key)).body;
    await db().$executeRaw`
      INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "mediaIdentity", "createdAt", "updatedAt")
      SELECT 'bulk_' || g, ${room.id}, ${room.tenantId}, 'bulk_' || g, 'Bulk', 'bulk_media_' || g,
        now() + g * interval '1 ms', now()
      FROM generate_series(1, 3000) g`;
    const firstTen = Array.from({ length: 10 }, (_, i) => `bulk_${i + 1}`);
    // Participant rows a statement fetched, as PostgreSQL counts them for the transaction (rolled
    // back: nothing is written). Each statement on a connection of its own, as the app runs it.
    const rowsReadBy = async <T>(statement: (client: pg.PoolClient) => Promise<T>) => {
      const client = await sql().connect();
      const fetched = () => rowsReadOn(client, 'Participant');
      try {
        await client.query('BEGIN');
        const before = await fetched();
        const result = await statement(client);
        return { result, rowsRead: (await fetched()) - before };
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    };
    const listed = await rowsReadBy((client) =>
      client.query<Participant>(`SELECT * FROM convene_read_room_participants($1::text[], 10)`, [[room.id]]),
    );
    expect(listed.result.rows.map((p) => p.externalUserId)).toEqual(firstTen);
    expect(listed.rowsRead).toBeLessThanOrEqual(10);
    // The join: the room's first ten for its Room, and nothing else of the room's 3,000.
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: room.tenantId } });
    for (const externalUserId of ['newcomer', 'bulk_2999']) {
      const joined = await rowsReadBy((client) =>
        client.query<{ r: { outcome: string } }>(
          joinStatement({
            tenant,
            roomId: room.id,
            input: joinInput.parse({ externalUserId, displayName: 'Late' }),
            now: new Date(),
          }),
        ),
      );
      expect(joined.result.rows[0].r.outcome).toBe('ok');
      expect(joined.rowsRead).toBeLessThanOrEqual(12);
    }
    const names = (r: { participants: { externalUserId: string }[] }) => r.participants.map((p) => p.externalUserId);
    expect(names((await suite.api('GET', `/api/v1/rooms/${room.id}`, { key: webinars.key })).body)).toEqual(firstTen);
    expect(names((await join(room.id, { externalUserId: 'late' }, webinars.key)).body.room)).toEqual(firstTen);
  });

  it("a join locks its Room row but never rewrites it: the room's row count, kept for every writer, has a row of its own", async () => {
    const room = (await createRoom({ enableWaitingRoom: true, maxParticipants: 50 })).body;
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: room.tenantId } });
    // Rows each statement wrote, by table, as PostgreSQL counts them for the transaction (rolled back).
    const writesBy = async (externalUserId: string) => {
      const client = await sql().connect();
      const written = async () =>
        Object.fromEntries(
          (
            await client.query<{ relname: string; n: number }>(
              `SELECT relname, (n_tup_ins + n_tup_upd)::int AS n FROM pg_stat_xact_user_tables
                 WHERE relname IN ('Room', 'RoomParticipantRows', 'Participant') AND schemaname = current_schema()`,
            )
          ).rows.map((r) => [r.relname, r.n]),
        );
      try {
        await client.query('BEGIN');
        const before = await written();
        const { rows } = await client.query<{ r: { outcome: string } }>(
          joinStatement({
            tenant,
            roomId: room.id,
            input: joinInput.parse({ externalUserId, displayName: 'Host', role: 'HOST' }),
            now: new Date(),
          }),
        );
        const after = await written();
        const delta = (t: string) => (after[t] ?? 0) - (before[t] ?? 0);
        return {
          outcome: rows[0].r.outcome,
          room: delta('Room'),
          count: delta('RoomParticipantRows'),
          participant: delta('Participant'),
        };
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    };
    // A connection's first join into a room makes its share of the count (a row written, then
    // bumped); later joins bump it. The Room row is never written.
    const first = await writesBy('first-host');
    expect({ ...first, count: undefined }).toEqual({ outcome: 'ok', room: 0, participant: 1, count: undefined });
    expect([1, 2]).toContain(first.count);
    expect((await join(room.id, { externalUserId: 'host-1', role: 'HOST' })).status).toBe(200);
    const later = await writesBy('second-host');
    expect({ ...later, count: undefined }).toEqual({ outcome: 'ok', room: 0, participant: 1, count: undefined });
    expect([1, 2]).toContain(later.count);

    // Every writer is counted: the one-statement join (a host, and an attendee parked in the
    // waiting room); a rejoin adds no row and no count.
    expect((await join(room.id, { externalUserId: 'attendee-1' })).body.waitingForApproval).toBe(true);
    expect((await join(room.id, { externalUserId: 'host-1', role: 'HOST' })).status).toBe(200);
    const rowsOf = async (roomId: string) => ({
      counted: (await db().roomParticipantRows.aggregate({ where: { roomId }, _sum: { count: true } }))._sum.count ?? 0,
      rows: await db().participant.count({ where: { roomId } }),
    });
    expect(await rowsOf(room.id)).toEqual({ counted: 2, rows: 2 });
  });

  it('a join reads its room and its user by key, whatever the table held when its connection planned it: a tenant with 2,000 rooms, a waiting room of 2,000', async () => {
    // PL/pgSQL keeps a statement's plan for the life of the connection, made from the tables as they
    // were then. Planned while a tenant had a handful of rooms, "this room of this tenant" may be
    // answered through the (tenantId, externalId) index, reading every room of the tenant on each
    // join once it has thousands; "this user in this room" through a (roomId, ...) index, reading
    // the whole room (also when planned from statistics that describe small rooms, as the webinar
    // test above leaves them when the whole file runs).
    const tenant = (
      await seedTenant({
        name: 'Many rooms',
        entitlementOverrides: { apiRequestsPerSecond: 1000, maxParticipantsPerRoom: 5000 },
      })
    ).tenant;
    const roomOf = async (body: Record<string, unknown>) =>
      (
        await db().room.create({
          data: {
            tenantId: tenant.id,
            name: 'Plan',
            slug: `plan-${Math.random().toString(36).slice(2)}`,
            mediaRoomName: `plan_${Math.random().toString(36).slice(2)}`,
            createdByExternalId: 'u_owner',
            maxParticipants: 5000,
            ...body,
          },
        })
      ).id;
    const open = await roomOf({});
    const waiting = await roomOf({ enableWaitingRoom: true });
    const client = await sql().connect();
    const joinAs = (roomId: string, externalUserId: string) => joinOn(client, tenant, roomId, { externalUserId });
    // Rows of a table one join read, as PostgreSQL counts them for the transaction (rolled back).
    const rowsRead = async (table: string, roomId: string, externalUserId: string) => {
      const read = () => rowsReadOn(client, table);
      await client.query('BEGIN');
      try {
        const before = await read();
        const outcome = (await joinAs(roomId, externalUserId)).rows[0].r.outcome;
        return { outcome, rows: (await read()) - before };
      } finally {
        await client.query('ROLLBACK');
      }
    };
    try {
      // Planned now, while the tenant has two rooms and each room a few participants (past the
      // fifth run PostgreSQL keeps one plan for every later run on this connection).
      for (let i = 0; i < 8; i++) {
        expect((await joinAs(open, `early_${i}`)).rows[0].r.outcome).toBe('ok');
        expect((await joinAs(waiting, `early_${i}`)).rows[0].r.outcome).toBe('waiting');
      }
      await db().$executeRaw`
        INSERT INTO "Room" (id, "tenantId", name, slug, "mediaRoomName", "createdByExternalId", "updatedAt")
        SELECT 'bulk_room_' || g, ${tenant.id}, 'Bulk', 'bulk-room-' || g, 'bulk_room_media_' || g, 'u_owner', now()
        FROM generate_series(1, 2000) g`;
      await db().$executeRaw`
        INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "mediaIdentity",
          "connectionState", "isApproved", "createdAt", "updatedAt")
        SELECT 'bulk_waiting_' || g, ${waiting}, ${tenant.id}, 'bulk_waiting_' || g, 'Bulk', 'bulk_waiting_media_' || g,
          'WAITING', g = 1500, now(), now()
        FROM generate_series(1, 2000) g`;
      // A room made after the tenant's 2,000 (as a webinar booked today is): the tenant's index has it last.
      const webinar = await roomOf({});
      const intoWebinar = await rowsRead('Room', webinar, 'late');
      // The room by id, a few times (a look without a lock, the lock, the foreign key checks of the
      // new participant and of this connection's new share of the count); not the tenant's 2,000 others.
      expect(intoWebinar).toEqual({ outcome: 'ok', rows: intoWebinar.rows });
      expect(intoWebinar.rows).toBeLessThanOrEqual(6);
      // One approved by a moderator comes in: found by the unique index, not among the 2,000. The
      // rest of what the join reads of the room is its Room response's first ten.
      const approved = await rowsRead('Participant', waiting, 'bulk_waiting_1500');
      expect(approved).toEqual({ outcome: 'ok', rows: approved.rows });
      expect(approved.rows).toBeLessThanOrEqual(13);
      // A newcomer parked by the same statement: looked for by the unique index (none), then the
      // Room response's first ten; not the 2,000 waiting.
      const newcomer = await rowsRead('Participant', waiting, 'newcomer');
      expect(newcomer).toEqual({ outcome: 'waiting', rows: newcomer.rows });
      expect(newcomer.rows).toBeLessThanOrEqual(13);
      // The transactional join (after reopening an ended room): the user's row and the seat
      // check read one Participant row between them, not the room (its 2,008 rows are far below the
      // cap, so no seat needs counting).
      const waitingRoom = await db().room.findUniqueOrThrow({ where: { id: waiting } });
      const parked = await db().$transaction(async (tx) => {
        const read = async () => (await tx.$queryRawUnsafe<{ n: number }[]>(ROWS_READ_SQL, 'Participant'))[0].n;
        const before = await read();
        const [found] = await tx.$queryRaw<{ externalUserId: string }[]>`
          SELECT "externalUserId" FROM convene_participant_of(${waiting}, 'bulk_waiting_1999')`;
        await assertSeatFree({ tx, tenant, room: waitingRoom, externalUserId: 'newcomer', now: new Date() });
        return { found: found.externalUserId, rows: (await read()) - before };
      });
      expect(parked).toEqual({ found: 'bulk_waiting_1999', rows: 1 });
      // A room whose first 2,000 have left: its Room response's first ten present are read from
      // the index of those present, not found by passing over the 2,000 who left.
      await db().$executeRaw`
        INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "mediaIdentity",
          "connectionState", "createdAt", "updatedAt")
        SELECT 'bulk_left_' || g, ${open}, ${tenant.id}, 'bulk_left_' || g, 'Bulk', 'bulk_left_media_' || g,
          'DISCONNECTED', now() - interval '1 hour', now()
        FROM generate_series(1, 2000) g`;
      const afterLeavers = await rowsRead('Participant', open, 'late');
      expect(afterLeavers).toEqual({ outcome: 'ok', rows: afterLeavers.rows });
      expect(afterLeavers.rows).toBeLessThanOrEqual(12);
    } finally {
      client.release();
    }
  });

  it('joins into a room far from its cap run side by side; a change to the room waits for them; near its cap a join runs alone', async () => {
    const webinar = (await createRoom({ maxParticipants: 50 })).body;
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: webinar.tenantId } });
    const joinAs = (client: pg.PoolClient, roomId: string, externalUserId: string) =>
      joinOn(client, tenant, roomId, { externalUserId });
    // Two connections with different shares of the count (a share is the backend pid mod 8).
    const clients: pg.PoolClient[] = [];
    const pidOf = async (c: pg.PoolClient) =>
      (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const inFlight = await sql().connect();
    clients.push(inFlight);
    const inFlightShare = (await pidOf(inFlight)) % 8;
    let other: pg.PoolClient | undefined;
    while (!other) {
      const c = await sql().connect();
      clients.push(c);
      if ((await pidOf(c)) % 8 !== inFlightShare) other = c;
    }
    const lockWaitFails = async (statement: () => Promise<unknown>) => {
      await other!.query(`SET lock_timeout = '300ms'`);
      try {
        await statement();
        return false;
      } catch (err) {
        if ((err as { code?: string }).code !== '55P03') throw err;
        return true;
      } finally {
        await other!.query('RESET lock_timeout');
      }
    };
    try {
      await inFlight.query('BEGIN');
      expect((await joinAs(inFlight, webinar.id, 'in-flight')).rows[0].r.outcome).toBe('ok');
      // While that join is in flight (not committed), another join into the same room goes through...
      await other.query(`SET lock_timeout = '2s'`);
      expect((await joinAs(other, webinar.id, 'beside')).rows[0].r.outcome).toBe('ok');
      await other.query('RESET lock_timeout');
      // ...but a change to the room waits for it.
      expect(
        await lockWaitFails(() => other!.query(`UPDATE "Room" SET "isLocked" = true WHERE id = $1`, [webinar.id])),
      ).toBe(true);
      await inFlight.query('ROLLBACK');

      // Within 8 rows of its cap a join holds the room alone: the next one waits.
      const small = (await createRoom({ maxParticipants: 8 })).body;
      await inFlight.query('BEGIN');
      expect((await joinAs(inFlight, small.id, 'alone')).rows[0].r.outcome).toBe('ok');
      expect(await lockWaitFails(() => joinAs(other!, small.id, 'waits'))).toBe(true);
      await inFlight.query('ROLLBACK');
    } finally {
      for (const c of clients) {
        await c.query('ROLLBACK').catch(() => undefined);
        c.release();
      }
    }
  });

  it('serves /info without a credential and without private fields', async () => {
    const room = (await createRoom({ enableE2EE: true, externalMetadata: { secret: 'crm-secret-marker' } })).body;
    await join(room.id, { externalUserId: 'private-participant-marker' });
    const info = await suite.api('GET', `/api/v1/rooms/${room.id}/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      id: room.id,
      roomId: room.id,
      roomName: 'Standup',
      metaVersion: 1,
      enableE2EE: true,
      enableChat: true,
      enableWaitingRoom: false,
    });
    // Distinctive markers and quoted keys: a bare "u1" once matched inside a random room id.
    expect(info.text).not.toMatch(
      /crm-secret-marker|private-participant-marker|"externalMetadata"|"participants"|"tenantId"/,
    );
    expect((await suite.api('GET', '/api/v1/rooms/nope/info')).status).toBe(404);
  });
});

describe('join', () => {
  it('mints a LiveKit token with role grants and the metadata claim, and a join URL', async () => {
    const room = (await createRoom({ enableScreenShare: true })).body;
    const res = await join(room.id, {
      externalUserId: 'u_host',
      displayName: 'Grace',
      role: 'HOST',
      externalRole: 'teacher',
      avatarUrl: 'https://img.example.com/g.png',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      waitingForApproval: false,
      mediaUrl: suite.media.url,
      participant: { role: 'HOST', connectionState: 'PENDING', rejoinCount: 0, externalRole: 'teacher' },
      room: { id: room.id },
    });
    const claims = await new TokenVerifier(suite.media.apiKey, suite.media.apiSecret).verify(res.body.token);
    expect(claims.sub).toBe(res.body.participant.mediaIdentity);
    expect(claims.sub).not.toContain('u_host');
    expect(claims.name).toBe('Grace');
    expect(claims.video).toMatchObject({
      roomJoin: true,
      room: room.mediaRoomName,
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
    });
    expect(claims.video!.canPublishSources).toEqual(['camera', 'microphone', 'screen_share', 'screen_share_audio']);
    expect(JSON.parse(claims.metadata!)).toEqual({
      metaVersion: 1,
      roomId: room.id,
      roomName: 'Standup',
      externalUserId: 'u_host',
      role: 'HOST',
      externalRole: 'teacher',
      enableE2EE: false,
      enableRecording: false,
      autoRecord: false,
      enableAiFeatures: false,
      enableChat: true,
      enableWaitingRoom: false,
    });
    const ttl = (claims as { exp: number }).exp - Math.floor(Date.now() / 1000);
    expect(ttl).toBeGreaterThan(6 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(6 * 3600);
    const url = new URL(res.body.joinUrl);
    expect(url.pathname).toBe('/join');
    expect(url.searchParams.get('token')).toBe(res.body.token);
    expect(url.searchParams.get('url')).toBe(suite.media.url);
  });

  it('a viewer cannot publish; ttlSeconds shortens the token; chat off removes data publishing', async () => {
    const room = (await createRoom({ enableChat: false })).body;
    const res = await join(room.id, { externalUserId: 'u_view', role: 'VIEWER', ttlSeconds: 120 });
    const claims = await new TokenVerifier(suite.media.apiKey, suite.media.apiSecret).verify(res.body.token);
    expect(claims.video).toMatchObject({ canPublish: false, canPublishData: false });
    expect((claims as { exp: number }).exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(120);
    expect(res.body.participant.role).toBe('VIEWER');
  });

  it('defaults the role to ATTENDEE and refuses bad roles and missing fields', async () => {
    const room = (await createRoom()).body;
    expect((await join(room.id, { externalUserId: 'u_a' })).body.participant.role).toBe('ATTENDEE');
    const badRole = await join(room.id, { externalUserId: 'u_b', role: 'ADMIN' });
    expect([badRole.status, badRole.body.error.code, badRole.body.error.details[0].field]).toEqual([
      400,
      'VALIDATION_FAILED',
      'role',
    ]);
    expect((await join(room.id, { displayName: 'no id' })).body.error.details[0].field).toBe('externalUserId');
    expect((await join(room.id, { externalUserId: 'x', ttlSeconds: 10 })).status).toBe(400);
    expect((await join('missing-room', { externalUserId: 'x' })).status).toBe(404);
  });

  it('a rejoin reuses the participant and counts it', async () => {
    const room = (await createRoom()).body;
    const first = await join(room.id, { externalUserId: 'u_re', displayName: 'One' });
    const second = await join(room.id, { externalUserId: 'u_re', displayName: 'Two' });
    expect(second.body.participant.id).toBe(first.body.participant.id);
    expect(second.body.participant).toMatchObject({ rejoinCount: 1, displayName: 'Two' });
    expect(await db().participant.count({ where: { roomId: room.id } })).toBe(1);
  });

  it('a rejoin updates only what it sends; a new role brings its permissions; one removed is refused and left untouched, in a full room too', async () => {
    const room = (await createRoom({ maxParticipants: 2 })).body;
    const first = await join(room.id, {
      externalUserId: 'u_viewer',
      role: 'VIEWER',
      avatarUrl: 'https://cdn.example.com/a.png',
      externalRole: 'student',
      externalMetadata: { crm: 7 },
    });
    expect(first.body.participant).toMatchObject({ canPublish: false, canScreenShare: false });
    const pid = first.body.participant.id;
    // A permission a moderator granted survives a rejoin in the same role.
    await db().participant.update({ where: { id: pid }, data: { canPublishData: false } });
    const same = await join(room.id, { externalUserId: 'u_viewer', role: 'VIEWER', displayName: 'Again' });
    expect(same.body.participant).toMatchObject({
      id: pid,
      displayName: 'Again',
      avatarUrl: 'https://cdn.example.com/a.png',
      externalRole: 'student',
      externalMetadata: { crm: 7 },
      canPublishData: false,
      rejoinCount: 1,
    });
    // A new role: that role's permissions; fields sent as null are cleared.
    const promoted = await join(room.id, { externalUserId: 'u_viewer', role: 'HOST', externalMetadata: null });
    expect(promoted.body.participant).toMatchObject({
      role: 'HOST',
      canPublish: true,
      canPublishData: true,
      canRecord: true,
      externalMetadata: null,
      avatarUrl: 'https://cdn.example.com/a.png',
      rejoinCount: 2,
    });
    // Removed: refused, and the row is not written (in a room that is full as well: 403, not 409).
    const other = (await join(room.id, { externalUserId: 'u_other' })).body.participant;
    await db().participant.update({ where: { id: other.id }, data: { connectionState: 'REMOVED' } });
    const before = await db().participant.findUniqueOrThrow({ where: { id: other.id } });
    const refusedAt = async () => {
      const back = await join(room.id, { externalUserId: 'u_other', displayName: 'Back' });
      expect([back.status, back.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect(await db().participant.findUniqueOrThrow({ where: { id: other.id } })).toEqual(before);
    };
    await refusedAt(); // a free seat
    await join(room.id, { externalUserId: 'u_third' }); // the second seat: the room is full now
    await refusedAt();
    expect((await join(room.id, { externalUserId: 'u_fourth' })).body.error.code).toBe('ROOM_FULL');
  });

  it('a locked room refuses attendees with 423 but admits hosts', async () => {
    const room = (await createRoom()).body;
    await suite.api('PATCH', `/api/v1/rooms/${room.id}`, { key: acme.key, body: { isLocked: true } });
    const refused = await join(room.id, { externalUserId: 'u_l' });
    expect([refused.status, refused.body.error.code]).toEqual([423, 'ROOM_LOCKED']);
    expect((await join(room.id, { externalUserId: 'u_h', role: 'HOST' })).status).toBe(200);
    expect(await db().participant.count({ where: { roomId: room.id } })).toBe(1);
  });

  it('a burst into a waiting room parks each user once, in one statement each: one participant.waiting per user, delivered', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const t = await seedTenant({
        name: 'Webinar with a waiting room',
        plan: 'enterprise',
        webhookUrl: receiver.url,
        webhookEvents: ['participant.waiting'],
        entitlementOverrides: { apiRequestsPerSecond: 10_000 },
      });
      const room = (await createRoom({ enableWaitingRoom: true }, t.key)).body;
      // 30 users, each joining three times at once: their own joins race each other too.
      const users = Array.from({ length: 30 }, (_, i) => `parked_${i}`);
      const answers = await Promise.all(
        users.flatMap((externalUserId) => [1, 2, 3].map(() => join(room.id, { externalUserId }, t.key))),
      );
      expect(answers.map((a) => [a.status, a.body.waitingForApproval, a.body.token])).toEqual(
        answers.map(() => [200, true, null]),
      );
      const parked = await db().participant.findMany({ where: { roomId: room.id } });
      expect(parked.map((p) => p.externalUserId).sort()).toEqual([...users].sort());
      expect(parked.every((p) => p.connectionState === 'WAITING' && !p.isApproved && p.admissionSecretHash)).toBe(true);
      expect(parked.every((p) => p.tokenIssuedAt === null)).toBe(true);
      // The outbox as emitEvent writes it: one event and one delivery per parked user.
      const events = await db().event.findMany({ where: { tenantId: t.tenant.id }, include: { deliveries: true } });
      expect(events.map((e) => [e.name, (e.data as { externalUserId: string }).externalUserId]).sort()).toEqual(
        users.map((u) => ['participant.waiting', u]).sort(),
      );
      expect(events.every((e) => e.deliveries.length === 1 && e.deliveries[0].url === receiver.url)).toBe(true);
      expect(
        events.every((e) => {
          const p = parked.find((x) => x.id === (e.data as { participantId: string }).participantId);
          return p && (e.data as { roomId: string }).roomId === room.id;
        }),
      ).toBe(true);
      await receiver.waitFor(30);
      const delivered = receiver.received.map((r) => JSON.parse(r.body) as { id: string; event: string });
      expect(new Set(delivered.map((d) => d.id))).toEqual(new Set(events.map((e) => e.id)));
      // A rejoin while parked is parked again, with no second event.
      expect((await join(room.id, { externalUserId: 'parked_0' }, t.key)).body.waitingForApproval).toBe(true);
      expect(await db().event.count({ where: { tenantId: t.tenant.id } })).toBe(30);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('a waiting-room park writes its event as emitEvent does: no delivery for a tenant whose webhook filter leaves it out', async () => {
    // The one-statement join writes participant.waiting itself (the migration's SQL beside
    // lib/events/outbox.ts): the tenant's event filter must hold there too.
    const t = await seedTenant({
      name: 'Filtered',
      plan: 'enterprise',
      webhookUrl: 'http://127.0.0.1:9/hooks',
      webhookEvents: ['room.finished'],
    });
    const room = (await createRoom({ enableWaitingRoom: true }, t.key)).body;
    expect((await join(room.id, { externalUserId: 'parked' }, t.key)).body.waitingForApproval).toBe(true);
    const events = await db().event.findMany({ where: { tenantId: t.tenant.id }, include: { deliveries: true } });
    expect(events.map((e) => [e.name, e.deliveries.length])).toEqual([['participant.waiting', 0]]);
  });

  it('200 simultaneous joins into a room for 10 admit exactly 10', async () => {
    const room = (await createRoom({ maxParticipants: 10 })).body;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => join(room.id, { externalUserId: `racer_${i}` })),
    );
    const admitted = results.filter((r) => r.status === 200);
    const full = results.filter((r) => r.status === 409);
    expect(admitted).toHaveLength(10);
    expect(full).toHaveLength(190);
    expect(full.every((r) => r.body.error.code === 'ROOM_FULL')).toBe(true);
    expect(await db().participant.count({ where: { roomId: room.id } })).toBe(10);
  }, 60_000);

  it('a stampede of 300 simultaneous joins into one room for 250 admits exactly 250; the rest are 409 ROOM_FULL', async () => {
    const big = await seedTenant({
      name: 'Webinar',
      plan: 'enterprise',
      entitlementOverrides: { apiRequestsPerSecond: 10_000 },
    });
    const room = (await createRoom({ maxParticipants: 250 }, big.key)).body;
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => join(room.id, { externalUserId: `att_${i}` }, big.key)),
    );
    const admitted = results.filter((r) => r.status === 200);
    const full = results.filter((r) => r.status === 409);
    expect(results.filter((r) => r.status !== 200 && r.status !== 409).map((r) => r.status)).toEqual([]);
    expect(admitted).toHaveLength(250);
    expect(full).toHaveLength(50);
    expect(full.every((r) => r.body.error.code === 'ROOM_FULL')).toBe(true);
    expect(new Set(admitted.map((r) => r.body.participant.id)).size).toBe(250);
    expect(
      admitted.every((r) => typeof r.body.token === 'string' && r.body.participant.connectionState === 'PENDING'),
    ).toBe(true);
    expect(await db().participant.count({ where: { roomId: room.id } })).toBe(250);
    // Rejoins of admitted participants keep their seats; a newcomer is still refused.
    const again = await Promise.all(
      admitted.slice(0, 20).map((r) => join(room.id, { externalUserId: r.body.participant.externalUserId }, big.key)),
    );
    expect(again.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(again.every((r) => r.body.participant.rejoinCount === 1)).toBe(true);
    expect((await join(room.id, { externalUserId: 'late' }, big.key)).body.error.code).toBe('ROOM_FULL');
  }, 60_000);

  it('a participant who left frees the seat; one who never connected frees it after the hold', async () => {
    const room = (await createRoom({ maxParticipants: 1 })).body;
    const a = await join(room.id, { externalUserId: 'u_1' });
    expect((await join(room.id, { externalUserId: 'u_2' })).body.error.code).toBe('ROOM_FULL');
    await db().participant.update({ where: { id: a.body.participant.id }, data: { connectionState: 'DISCONNECTED' } });
    expect((await join(room.id, { externalUserId: 'u_2' })).status).toBe(200);
    const b = await db().participant.findFirstOrThrow({ where: { roomId: room.id, externalUserId: 'u_2' } });
    await db().participant.update({ where: { id: b.id }, data: { tokenIssuedAt: new Date(Date.now() - 11 * 60_000) } });
    expect((await join(room.id, { externalUserId: 'u_3' })).status).toBe(200);
  });

  it('a join on an ENDED room re-opens it; POST reopen likewise; reopen of an open room is 409', async () => {
    const room = (await createRoom()).body;
    expect((await suite.api('POST', `/api/v1/rooms/${room.id}/reopen`, { key: acme.key })).body.error.code).toBe(
      'INVALID_STATE',
    );
    const ended = await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: acme.key });
    expect(ended.body).toMatchObject({ status: 'ENDED' });
    expect(ended.body.endedAt).not.toBeNull();
    const rejoined = await join(room.id, { externalUserId: 'u_back' });
    expect(rejoined.body.room).toMatchObject({ status: 'WAITING', reopenCount: 1, endedAt: null });
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: acme.key });
    const reopened = await suite.api('POST', `/api/v1/rooms/${room.id}/reopen`, { key: acme.key });
    expect(reopened.body).toMatchObject({ status: 'WAITING', reopenCount: 2 });
  });

  it('a refused join into an ENDED room leaves it ENDED: the re-opening is rolled back with the refusal', async () => {
    const room = (await createRoom({ maxParticipants: 1 })).body;
    const removed = await join(room.id, { externalUserId: 'u_removed' });
    expect(
      (
        await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${removed.body.participant.id}/remove`, {
          key: acme.key,
        })
      ).status,
    ).toBe(200);
    const holder = await join(room.id, { externalUserId: 'u_holder' });
    expect(holder.status).toBe(200);
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: acme.key });
    // Turned away: refused, and the room is not re-opened by the attempt.
    expect((await join(room.id, { externalUserId: 'u_removed' })).status).toBe(403);
    // Full (u_holder still holds the one seat within its hold): refused the same way.
    expect((await join(room.id, { externalUserId: 'u_new' })).body.error.code).toBe('ROOM_FULL');
    const after = await db().room.findUniqueOrThrow({ where: { id: room.id } });
    expect(after).toMatchObject({ status: 'ENDED', reopenCount: 0 });
    expect(await db().participant.count({ where: { roomId: room.id, externalUserId: 'u_new' } })).toBe(0);
    // The holder comes back: re-opened once.
    const back = await join(room.id, { externalUserId: 'u_holder' });
    expect(back.body.room).toMatchObject({ status: 'WAITING', reopenCount: 1 });
  });

  it('ending deletes the media room, disconnects participants and emits room.finished once', async () => {
    const room = (await createRoom()).body;
    const p = await join(room.id, { externalUserId: 'u_conn' });
    await db().participant.update({
      where: { id: p.body.participant.id },
      data: { connectionState: 'CONNECTED', joinedAt: new Date(Date.now() - 5000) },
    });
    suite.media.addParticipant(room.mediaRoomName, { identity: p.body.participant.mediaIdentity });
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: acme.key });
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: acme.key });
    expect(suite.media.rooms.has(room.mediaRoomName)).toBe(false);
    const participant = await db().participant.findUniqueOrThrow({ where: { id: p.body.participant.id } });
    expect(participant.connectionState).toBe('DISCONNECTED');
    expect(participant.duration).toBeGreaterThanOrEqual(4);
    const events = await db().event.findMany({ where: { tenantId: acme.tenant.id, name: 'room.finished' } });
    expect(events.filter((e) => (e.data as { roomId: string }).roomId === room.id)).toHaveLength(1);
  });

  it('with the media layer down, ending is 502 and the room is unchanged', async () => {
    const room = (await createRoom()).body;
    suite.media.addParticipant(room.mediaRoomName, { identity: 'someone' });
    suite.media.setDown(true);
    try {
      const res = await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: acme.key });
      expect([res.status, res.body.error.code]).toEqual([502, 'MEDIA_LAYER_UNAVAILABLE']);
    } finally {
      suite.media.setDown(false);
    }
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).status).toBe('WAITING');
  });
});
