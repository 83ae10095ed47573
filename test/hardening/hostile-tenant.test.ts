/**
 * A tenant who attacks through streaming, recording and ingress (issue 46, items 7–11): RTMP
 * destinations into the private network, URLs that cannot be masked, concurrent starts past the
 * plan, a month's minutes run out while streams and recordings run, ingresses without end. Each
 * refusal is a 4xx from the catalogue, and nothing runs in the media layer without its row.
 *
 * This file's app runs as production does (WEBHOOK_ALLOW_INSECURE_URLS off); the development
 * switch is tried in-process. The media server's own webhooks go to the app, as on `npm start`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinPeople } from '../support/rooms';
import { holds, until } from '../support/until';
import { db } from '@/lib/db';
import { resetConfigForTests } from '@/lib/config';
import { startStream, UNREACHABLE_DESTINATION } from '@/lib/domain/streams';
import { stopEgressOverMonthlyMinutes } from '@/lib/domain/recordings-limits';

const suite = useSuite({ env: () => ({ WEBHOOK_ALLOW_INSECURE_URLS: 'false' }) });
const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
beforeAll(() => suite.media.setWebhookUrls([hook()]));

const egressStarts = () => suite.media.callsTo('StartRoomCompositeEgress').length;
const stream = (key: string, roomId: string, urls: string[]) =>
  suite.api('POST', '/api/v1/streaming/start', { key, body: { roomId, urls } });

describe('RTMP destinations (SSRF, unmaskable URLs)', () => {
  it('refuses every destination in the private network, by any spelling, before any egress starts', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const refused = [
      'rtmp://127.0.0.1:1935/live/key',
      'rtmp://127.1/live/key', // resolves to loopback
      'rtmp://2130706433/live/key', // loopback as one number
      'rtmp://localhost/live/key',
      'rtmps://10.0.0.5/live/key',
      'rtmp://192.168.1.10:1935/live/key',
      'rtmp://172.16.0.1/live/key',
      'rtmp://169.254.169.254/latest/key', // cloud metadata
      'rtmp://100.64.0.1/live/key', // CGNAT
      'rtmp://0.0.0.0/live/key',
      'rtmp://[::1]:1935/live/key',
      'rtmp://[::ffff:127.0.0.1]/live/key', // IPv6-mapped
      'rtmp://[::ffff:a9fe:a9fe]/live/key',
      'rtmp://[fe80::1]/live/key', // link-local
      'rtmp://[fd00::1]/live/key', // unique local
      'rtmp://metadata.google.internal/live/key',
      'rtmp://no-such-host.invalid/live/key', // does not resolve
    ];
    const before = egressStarts();
    for (const url of refused) {
      const res = await stream(t.key, room.id, ['rtmp://8.8.8.8/live/first-is-fine-key', url]);
      expect([url, res.status, res.body.error?.code, res.body.error?.details?.[0]?.field]).toEqual([
        url,
        400,
        'VALIDATION_FAILED',
        'urls.1',
      ]);
    }
    expect(egressStarts()).toBe(before);
    expect(await db().stream.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    const publicAddress = await stream(t.key, room.id, ['rtmp://8.8.8.8:1935/live/public-stream-key']);
    expect([publicAddress.status, publicAddress.body.destinations]).toEqual([
      201,
      ['rtmp://8.8.8.8:1935/live/••••-key'],
    ]);
  });

  it('refuses URLs that cannot be masked or used, whole, before anything starts (no 500, no row)', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const before = egressStarts();
    for (const url of [
      'rtmp://8.8.8.8:99999/live/key', // port out of range: new URL throws (was a 500 after the egress started)
      'rtmp://8.8.8.8:0/live/key',
      'rtmp://user:pass@8.8.8.8/live/key',
      'rtmp://8.8.8.8/live/', // no stream key
      'rtmp://[::1/live/key',
    ]) {
      const res = await stream(t.key, room.id, [url]);
      expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'VALIDATION_FAILED']);
    }
    expect(egressStarts()).toBe(before);
    expect(await db().stream.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it('the development switch (WEBHOOK_ALLOW_INSECURE_URLS) allows a loopback destination, as for webhooks', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    process.env.WEBHOOK_ALLOW_INSECURE_URLS = 'true';
    resetConfigForTests();
    try {
      const started = await startStream(t.tenant, {
        roomId: room.id,
        urls: ['rtmp://127.0.0.1:1935/live/local-key-1234'],
      });
      expect(started.destinations).toEqual(['rtmp://127.0.0.1:1935/live/••••1234']);
    } finally {
      process.env.WEBHOOK_ALLOW_INSECURE_URLS = 'false';
      resetConfigForTests();
    }
  });

  it('reports one text for every unreachable destination: a closed port reads as an open one', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const reasons = [
      'the stream to rtmp://8.8.8.8:22/live/{sk} failed: End of file',
      'the stream to rtmp://8.8.8.8:23/live/{sk} failed: Connection refused',
      'Connection timed out',
      'Invalid data found when processing input',
    ];
    const errors: string[] = [];
    for (const reason of reasons) {
      const s = await stream(t.key, room.id, ['rtmp://8.8.8.8/live/one-text-stream-key']);
      expect(s.status).toBe(201);
      const row = await db().stream.findUniqueOrThrow({ where: { id: s.body.id } });
      await suite.media.sendWebhook(hook(), {
        event: 'egress_ended',
        egressInfo: {
          egressId: row.mediaEgressId,
          roomName: room.mediaRoomName,
          status: 'EGRESS_FAILED',
          error: reason,
        },
      });
      const ended = (await suite.api('GET', `/api/v1/streaming/${s.body.id}`, { key: t.key })).body;
      expect(ended.status).toBe('FAILED');
      errors.push(ended.error);
    }
    expect(new Set(errors)).toEqual(new Set([UNREACHABLE_DESTINATION]));
    const relayed = await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'stream.ended' } });
    expect(new Set(relayed.map((e) => (e.data as { error: string }).error))).toEqual(
      new Set([UNREACHABLE_DESTINATION]),
    );
  });

  it('an egress whose row cannot be written is stopped again: nothing runs without its row', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    // A fault in the row write, after the media layer started the egress.
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION test_refuse_stream() RETURNS trigger AS $$
      BEGIN
        IF NEW."createdByExternalId" = 'refuse-row' THEN RAISE EXCEPTION 'injected row failure'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER test_refuse_stream BEFORE INSERT ON "Stream" FOR EACH ROW EXECUTE FUNCTION test_refuse_stream()`,
    );
    try {
      const before = egressStarts();
      const res = await suite.api('POST', '/api/v1/streaming/start', {
        key: t.key,
        body: { roomId: room.id, urls: ['rtmp://8.8.8.8/live/row-fault-key'], createdByExternalId: 'refuse-row' },
      });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(egressStarts()).toBe(before + 1);
      const started = suite.media.callsTo('StartRoomCompositeEgress').at(-1)!;
      const egressId = [...suite.media.egresses.values()].find(
        (e) => JSON.stringify(e.request) === JSON.stringify(started.body),
      )?.egressId;
      expect(egressId).toBeDefined();
      expect(suite.media.callsTo('StopEgress').map((c) => (c.body as { egressId: string }).egressId)).toContain(
        egressId,
      );
      expect(await db().stream.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    } finally {
      await db().$executeRawUnsafe('DROP TRIGGER test_refuse_stream ON "Stream"');
    }
  });
});

describe('concurrent limits per plan, race-free', () => {
  it('concurrentStreams: five starts at once → exactly the plan’s two, the rest PLAN_LIMIT_REACHED', async () => {
    const t = await seedTenant({ plan: 'growth', entitlementOverrides: { concurrentStreams: 2 } });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const before = egressStarts();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => stream(t.key, room.id, [`rtmp://8.8.8.8/live/concurrent-key-${i}`])),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403, 403]);
    expect(results.filter((r) => r.status === 403).map((r) => r.body.error.code)).toEqual(
      Array(3).fill('PLAN_LIMIT_REACHED'),
    );
    expect(egressStarts()).toBe(before + 2);
    // The media layer's egress_started, sent while the start was still writing its row, is applied.
    for (const r of results.filter((r) => r.status === 201))
      await holds(
        'the stream ACTIVE',
        async () => (await db().stream.findUniqueOrThrow({ where: { id: r.body.id } })).status === 'ACTIVE',
      );
    // Stopping one frees its place once the media layer reports it ended.
    const first = results.find((r) => r.status === 201)!;
    expect((await suite.api('POST', `/api/v1/streaming/${first.body.id}/stop`, { key: t.key })).status).toBe(200);
    await holds('the stopped stream ended', async () =>
      ['COMPLETED', 'FAILED'].includes((await db().stream.findUniqueOrThrow({ where: { id: first.body.id } })).status),
    );
    expect((await stream(t.key, room.id, ['rtmp://8.8.8.8/live/after-stop-key'])).status).toBe(201);
  });

  it('a stop whose end the media layer never reported holds its place for five minutes, not for ever', async () => {
    const t = await seedTenant({ plan: 'growth', entitlementOverrides: { concurrentStreams: 1 } });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const first = await stream(t.key, room.id, ['rtmp://8.8.8.8/live/lost-end-key-1']);
    expect(first.status).toBe(201);
    await suite.media.webhooksIdle(); // its egress_started applied
    // Stopped, and its egress_ended lost (the app was down for every attempt): STOPPING it stays.
    await db().stream.update({ where: { id: first.body.id }, data: { status: 'STOPPING', updatedAt: new Date() } });
    const blocked = await stream(t.key, room.id, ['rtmp://8.8.8.8/live/lost-end-key-2']);
    expect([blocked.status, blocked.body.error?.code]).toEqual([403, 'PLAN_LIMIT_REACHED']);
    await db().stream.update({
      where: { id: first.body.id },
      data: { updatedAt: new Date(Date.now() - 6 * 60_000) },
    });
    expect((await stream(t.key, room.id, ['rtmp://8.8.8.8/live/lost-end-key-3'])).status).toBe(201);
  });

  it('one recording per room: four starts at once → one 201, three 409 CONFLICT, one egress', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u', enableRecording: true });
    const before = egressStarts();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        suite.api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { key: t.key, body: {} }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.error.code)).toEqual(Array(3).fill('CONFLICT'));
    expect(egressStarts()).toBe(before + 1);
    expect(await db().recording.count({ where: { roomId: room.id } })).toBe(1);
  });

  it('concurrentRecordings: recordings of three rooms at once → the plan’s two', async () => {
    const t = await seedTenant({ plan: 'growth', entitlementOverrides: { concurrentRecordings: 2 } });
    const rooms = await Promise.all(
      [1, 2, 3].map(() => createRoom(suite, t.key, { createdByExternalId: 'u', enableRecording: true })),
    );
    const results = await Promise.all(
      rooms.map((r) => suite.api('POST', `/api/v1/rooms/${r.id}/recordings/start`, { key: t.key, body: {} })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403]);
    expect(results.find((r) => r.status === 403)!.body.error.code).toBe('PLAN_LIMIT_REACHED');
  });

  it('ingressEndpoints: six creations at once → the plan’s three; a deleted one frees its place', async () => {
    const t = await seedTenant({ plan: 'growth', entitlementOverrides: { ingressEndpoints: 3 } });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const create = (i: number) =>
      suite.api('POST', '/api/v1/ingress', {
        key: t.key,
        body: {
          roomId: room.id,
          name: `in ${i}`,
          inputType: i % 2 ? 'WHIP' : 'RTMP',
          participantIdentity: `in-${i}`,
          participantName: 'In',
          createdByExternalId: 'u',
        },
      });
    const ingressesBefore = suite.media.ingresses.size;
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(create));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403, 403]);
    expect(results.filter((r) => r.status === 403).map((r) => r.body.error.code)).toEqual(
      Array(3).fill('PLAN_LIMIT_REACHED'),
    );
    expect(suite.media.ingresses.size).toBe(ingressesBefore + 3);
    const one = results.find((r) => r.status === 201)!;
    expect((await suite.api('DELETE', `/api/v1/ingress/${one.body.id}`, { key: t.key })).status).toBe(200);
    expect((await create(6)).status).toBe(201);
  });
});

describe('the month’s minutes run out while streams and recordings run', () => {
  it('stops every running stream and recording with the reason; stream.ended and egress.ended follow; new starts refused', async () => {
    const t = await seedTenant({
      plan: 'growth',
      entitlementOverrides: { streamingMinutesPerMonth: 1, recordingMinutesPerMonth: 1 },
    });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u', enableRecording: true });
    const streams = [
      await stream(t.key, room.id, ['rtmp://8.8.8.8/live/minutes-key-1']),
      await stream(t.key, room.id, ['rtmp://8.8.8.8/live/minutes-key-2']),
    ];
    const recording = await suite.api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { key: t.key, body: {} });
    expect([...streams.map((s) => s.status), recording.status]).toEqual([201, 201, 201]);
    const streamIds = streams.map((s) => s.body.id as string);
    await holds('everything started (egress_started applied)', async () => {
      const rows = [
        ...(await db().stream.findMany({ where: { id: { in: streamIds } } })),
        ...(await db().recording.findMany({ where: { id: recording.body.id } })),
      ];
      return rows.every((r) => r.startedAt !== null);
    });
    // Under a minute in: nothing is stopped.
    expect(await stopEgressOverMonthlyMinutes(new Date(Date.now() + 20_000))).toBe(0);
    // Two streams 40 s each: 80 s of a 60 s month; the recording alone 40 s, then 70 s.
    expect(await stopEgressOverMonthlyMinutes(new Date(Date.now() + 40_000))).toBe(2);
    expect(await stopEgressOverMonthlyMinutes(new Date(Date.now() + 70_000))).toBe(1);
    const stopCalls = suite.media.callsTo('StopEgress').map((c) => (c.body as { egressId: string }).egressId);
    const egressIds = [
      ...(await db().stream.findMany({ where: { id: { in: streamIds } } })).map((s) => s.mediaEgressId),
      (await db().recording.findUniqueOrThrow({ where: { id: recording.body.id } })).mediaEgressId,
    ];
    for (const id of egressIds) expect(stopCalls).toContain(id);
    // The media layer ends them (no media was published: FAILED, as on `npm start`): the reason stays.
    const ended = await until(async () => {
      const rows = await db().stream.findMany({ where: { id: { in: streamIds } } });
      return rows.every((r) => r.status === 'COMPLETED' || r.status === 'FAILED') ? rows : undefined;
    }, 'the streams ended');
    for (const s of ended) expect(s.error).toMatch(/streamingMinutesPerMonth \(1\) are used up/);
    await holds('the recording ended', async () =>
      ['COMPLETED', 'FAILED'].includes(
        (await db().recording.findUniqueOrThrow({ where: { id: recording.body.id } })).status,
      ),
    );
    expect((await db().recording.findUniqueOrThrow({ where: { id: recording.body.id } })).error).toMatch(
      /recordingMinutesPerMonth \(1\) are used up/,
    );
    const names = (await db().event.findMany({ where: { tenantId: t.tenant.id } })).map((e) => e.name);
    expect(names.filter((n) => n === 'stream.ended')).toHaveLength(2);
    expect(names.filter((n) => n === 'egress.ended')).toHaveLength(3);
    const streamEnded = await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'stream.ended' } });
    for (const e of streamEnded) expect((e.data as { error: string }).error).toMatch(/used up/);

    // Starting again while the month's minutes are used (a stream that ran 2 minutes): refused.
    await db().stream.updateMany({ where: { id: { in: streamIds } }, data: { status: 'ACTIVE' } });
    await db().stream.update({ where: { id: streamIds[0] }, data: { startedAt: new Date(Date.now() - 120_000) } });
    const again = await stream(t.key, room.id, ['rtmp://8.8.8.8/live/minutes-key-3']);
    expect([again.status, again.body.error.code]).toEqual([403, 'PLAN_LIMIT_REACHED']);
  });
});

describe('host actions from the call (low-severity findings)', () => {
  it('a role change for someone in a breakout acts in their breakout; VIEWER loses publishing at once', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'host' });
    const people = await joinPeople(suite, t.key, room.id, [
      ['host', 'HOST'],
      ['bob', 'ATTENDEE'],
    ]);
    await db().participant.updateMany({
      where: { id: { in: [people.host.id, people.bob.id] } },
      data: { connectionState: 'CONNECTED' },
    });
    suite.media.addParticipant(room.mediaRoomName, { identity: people.bob.mediaIdentity });
    await suite.media.webhooksIdle(); // their participant_joined applied before the host moves them
    const breakout = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
      key: t.key,
      body: { name: 'Side', createdByExternalId: 'host' },
    });
    const moved = await suite.api('POST', `/api/v1/me/participants/${people.bob.id}/move`, {
      bearer: people.host.token,
      body: { breakoutId: breakout.body.id },
    });
    expect(moved.status).toBe(200);
    const breakoutRoom = (await db().breakout.findUniqueOrThrow({ where: { id: breakout.body.id } })).mediaRoomName;
    await holds('bob in the breakout’s media room', () =>
      Boolean(suite.media.rooms.get(breakoutRoom)?.participants.has(people.bob.mediaIdentity)),
    );
    await suite.media.webhooksIdle();
    const role = await suite.api('POST', `/api/v1/me/participants/${people.bob.id}/role`, {
      bearer: people.host.token,
      body: { role: 'VIEWER' },
    });
    expect([role.status, role.body.role, role.body.canPublish, role.body.canScreenShare]).toEqual([
      200,
      'VIEWER',
      false,
      false,
    ]);
    const inMedia = suite.media.rooms.get(breakoutRoom)!.participants.get(people.bob.mediaIdentity)!;
    expect([inMedia.permission.canPublish, inMedia.permission.canPublishSources]).toEqual([false, []]);
    // And back: an ATTENDEE publishes again.
    const back = await suite.api('POST', `/api/v1/me/participants/${people.bob.id}/role`, {
      bearer: people.host.token,
      body: { role: 'ATTENDEE' },
    });
    expect([back.status, back.body.canPublish]).toEqual([200, true]);
    expect(suite.media.rooms.get(breakoutRoom)!.participants.get(people.bob.mediaIdentity)!.permission.canPublish).toBe(
      true,
    );
  });
});

describe('the call’s asset route', () => {
  it('a path Next cannot decode (/call-assets/%ff) is 400 at the proxy; unknown names are 404, never 500', async () => {
    const { NextRequest } = await import('next/server');
    const { proxy } = await import('@/proxy');
    for (const path of ['/call-assets/%ff', '/call-assets/%', '/join/%e0%a4%a']) {
      const res = await proxy(new NextRequest(`http://localhost${path}`));
      expect([path, res.status]).toEqual([path, 400]);
    }
    expect((await proxy(new NextRequest('http://localhost/call-assets/rnnoise.wasm'))).status).toBe(200);
    const { GET } = await import('@/app/call-assets/[file]/route');
    for (const file of ['nope.wasm', '__proto__', 'constructor', '../package.json']) {
      const res = await GET(new Request(`http://localhost/call-assets/${encodeURIComponent(file)}`), {
        params: Promise.resolve({ file }),
      });
      expect([file, res.status]).toEqual([file, 404]);
    }
  });
});
