/**
 * Call-quality telemetry over HTTP: a participant's reports filed under the room's live session and
 * read back by the tenant (series, summary, score, trouble, events, CSV); every refusal with its
 * catalogue code and nothing stored — oversized, malformed, too frequent, another room, another
 * session, a tenant key, a removed participant, a full series; the pre-call test's tokens; retention.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TokenVerifier } from 'livekit-server-sdk';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinPeople, type JoinedPerson } from '../support/rooms';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/domain/keys';
import { pruneQuality } from '@/lib/domain/quality';
import { sessionQualityCsv } from '@/lib/domain/quality-reads';
import {
  MAX_SAMPLES_PER_REPORT,
  QUALITY_REPORT_AFTER_LEAVING_MS,
  QUALITY_REPORT_MAX_BYTES,
  QUALITY_SAMPLES_PER_SERIES,
} from '@/lib/domain/quality-limits';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
let otherRoom: { id: string; mediaRoomName: string };
let people: Record<string, JoinedPerson>;

const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
let hookN = 0;
/**
 * In the media room (so the lifecycle's reconciliation with the media layer keeps them connected)
 * and connected in our records, as its participant_joined webhook says.
 */
async function connect(roomName: string, person: JoinedPerson, event = 'participant_joined') {
  suite.media.addParticipant(roomName, { identity: person.mediaIdentity });
  const now = Math.floor(Date.now() / 1000);
  const res = await suite.media.sendWebhook(hook(), {
    id: `wh_${++hookN}_${now}`,
    event,
    createdAt: String(now),
    room: { name: roomName, sid: `RM_${roomName}` },
    participant: { identity: person.mediaIdentity, sid: `PA_${person.id}`, joinedAt: String(now) },
  });
  expect(res.status).toBe(200);
}

/** A healthy sample: camera and microphone out, one person's camera and microphone in. */
function sample(overrides: { ageMs?: number; lossPct?: number; rttMs?: number; events?: unknown[] } = {}) {
  return {
    ageMs: overrides.ageMs ?? 0,
    intervalMs: 10_000,
    tracks: [
      {
        direction: 'send',
        kind: 'video',
        source: 'camera',
        kbps: 900,
        fps: 30,
        width: 640,
        height: 480,
        rttMs: 20,
        lossPct: 0,
        limitation: 'none',
        limitedPct: 0,
      },
      { direction: 'send', kind: 'audio', source: 'microphone', kbps: 32, rttMs: 20, lossPct: 0 },
      {
        direction: 'receive',
        kind: 'video',
        source: 'camera',
        from: 'p_x',
        kbps: 800,
        fps: 29,
        lossPct: overrides.lossPct ?? 0,
        jitterMs: 5,
      },
      {
        direction: 'receive',
        kind: 'audio',
        source: 'microphone',
        from: 'p_x',
        kbps: 30,
        lossPct: overrides.lossPct ?? 0,
        jitterMs: 8,
        concealedPct: 0.5,
      },
    ],
    connection: { rttMs: overrides.rttMs ?? 20, availableOutKbps: 2500, candidateType: 'host', quality: 'excellent' },
    ...(overrides.events ? { events: overrides.events } : {}),
  };
}
const report = (who: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  suite.api('POST', '/api/v1/me/quality', { bearer: people[who].token, body, headers });
const countSamples = async () => db().qualitySample.count();

let sessionId: string;

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  other = await seedTenant({ plan: 'growth', name: 'Other' });
  room = await createRoom(suite, t.key, { createdByExternalId: 'host', name: 'Quality' });
  otherRoom = await createRoom(suite, t.key, { createdByExternalId: 'host', name: 'Elsewhere' });
  people = await joinPeople(suite, t.key, room.id, [
    ['ada', 'HOST'],
    ['bob', 'ATTENDEE'],
    ['cy', 'ATTENDEE'],
    ['dee', 'ATTENDEE'],
    ['eve', 'ATTENDEE'],
    ['fay', 'ATTENDEE'],
    ['gus', 'ATTENDEE'],
    ['hal', 'ATTENDEE'],
  ]);
  for (const who of Object.keys(people)) await connect(room.mediaRoomName, people[who]);
  const session = await db().roomSession.findFirstOrThrow({ where: { roomId: room.id, endedAt: null } });
  sessionId = session.id;
});

describe('reports', () => {
  it('are filed under the live session, dated by the server, and read back with figures, score and events', async () => {
    const first = await report('ada', {
      roomId: room.id,
      client: { browser: 'Chrome 131', os: 'Linux', networkType: 'ethernet' },
      // The mute is dated as it is reported: after the connection began, however fast the setup ran.
      samples: [sample({ ageMs: 10_000 }), sample({ events: [{ type: 'muted', source: 'microphone', ageMs: 0 }] })],
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ sessionId, stored: 2 });
    // Later reports name the session they go to.
    const second = await report('ada', { roomId: room.id, sessionId, samples: [sample({ lossPct: 6, rttMs: 320 })] });
    expect(second.status).toBe(201);
    expect(second.body.stored).toBe(1);
    const bob = await report('bob', { roomId: room.id, samples: [sample()] });
    expect(bob.status).toBe(201);

    const res = await suite.api('GET', `/api/v1/sessions/${sessionId}/quality`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sessionId, roomId: room.id, nextCursor: null });
    const ada = res.body.data.find((p: { externalUserId: string }) => p.externalUserId === 'ada');
    expect(ada).toMatchObject({
      participantId: people.ada.id,
      displayName: 'ada',
      role: 'HOST',
      client: { browser: 'Chrome 131', os: 'Linux', networkType: 'ethernet' },
      samples: 3,
    });
    // Two clean samples score 5, the lossy one 2 (6 % loss; 320 ms scores 3): mean 4.0.
    expect(ada.series.map((p: { score: number }) => p.score)).toEqual([5, 5, 2]);
    expect(ada.series[2].issues.sort()).toEqual(['latency', 'packet_loss']);
    expect(ada.summary.score).toBe(4);
    expect(ada.summary.poorSeconds).toBe(10);
    expect(ada.summary.troubleSeconds).toBe(10);
    expect(ada.summary.measures.sendKbps).toEqual({ median: 932, worst: 932 });
    expect(ada.summary.measures.rttMs).toEqual({ median: 20, worst: 320 });
    expect(ada.summary.measures.recvLossPct.worst).toBe(6);
    expect(ada.summary.measures.sendFps).toEqual({ median: 30, worst: 30 });
    expect(ada.trouble).toHaveLength(1);
    expect(ada.trouble[0]).toMatchObject({ worstScore: 2 });
    // Dated by the server: the first sample 10 s before the report, in order.
    const at = ada.series.map((p: { at: string }) => Date.parse(p.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(9_000);
    expect(Math.abs(at[1] - Date.now())).toBeLessThan(60_000);
    // What happened: the connection (media layer) and the mute (as the call reported it).
    expect(ada.events.map((e: { type: string }) => e.type)).toEqual(['joined', 'muted']);
    expect(ada.events[1].source).toBe('microphone');
  });

  it('another tenant reads 404; a key without rooms.read is refused', async () => {
    expect((await suite.api('GET', `/api/v1/sessions/${sessionId}/quality`, { key: other.key })).status).toBe(404);
    const { plainTextKey: callsOnly } = await db().$transaction((tx) =>
      createApiKey(t.tenant, { tx, name: 'calls only', permissions: ['calls.read'] }),
    );
    const res = await suite.api('GET', `/api/v1/sessions/${sessionId}/quality`, { key: callsOnly });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('pages participants and averages long series into `points`, keeping each span’s worst score', async () => {
    const page = await suite.api('GET', `/api/v1/sessions/${sessionId}/quality?limit=1`, { key: t.key });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const rest = await suite.api(
      'GET',
      `/api/v1/sessions/${sessionId}/quality?limit=1&cursor=${page.body.nextCursor}`,
      {
        key: t.key,
      },
    );
    expect(rest.body.data[0].participantId).not.toBe(page.body.data[0].participantId);
    const coarse = await suite.api('GET', `/api/v1/sessions/${sessionId}/quality?points=10`, { key: t.key });
    expect(coarse.status).toBe(200);
    const bad = await suite.api('GET', `/api/v1/sessions/${sessionId}/quality?points=0`, { key: t.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('exports every sample as CSV', async () => {
    const csv = await sessionQualityCsv(t.tenant, sessionId);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toContain('"score","issues","sendKbps"');
    expect(lines.filter((l) => l.includes('"ada"'))).toHaveLength(3);
    // The console's download follows the API's rules: another tenant's session is not found.
    await expect(sessionQualityCsv(other.tenant, sessionId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('refused reports are never stored', () => {
  it('oversized: 413 PAYLOAD_TOO_LARGE', async () => {
    const before = await countSamples();
    const huge = JSON.stringify({
      roomId: room.id,
      samples: [sample()],
      padding: 'x'.repeat(QUALITY_REPORT_MAX_BYTES),
    });
    const res = await suite.api('POST', '/api/v1/me/quality', {
      bearer: people.cy.token,
      rawBody: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await countSamples()).toBe(before);
  });

  it('malformed: 400 INVALID_JSON or VALIDATION_FAILED naming the field', async () => {
    const before = await countSamples();
    const notJson = await suite.api('POST', '/api/v1/me/quality', {
      bearer: people.cy.token,
      rawBody: '{"roomId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.body.error.code).toBe('INVALID_JSON');
    const cases: [Record<string, unknown>, string][] = [
      [{ roomId: room.id, samples: [] }, 'samples'],
      [{ roomId: room.id, samples: Array.from({ length: MAX_SAMPLES_PER_REPORT + 1 }, () => sample()) }, 'samples'],
      [
        { roomId: room.id, samples: [{ ...sample(), tracks: [{ ...sample().tracks[0], kbps: -1 }] }] },
        'samples.0.tracks.0.kbps',
      ],
      [{ roomId: room.id, samples: [{ ...sample(), ageMs: 3_600_000 }] }, 'samples.0.ageMs'],
      [{ roomId: room.id, samples: [{ ...sample(), extra: 1 }] }, 'samples.0.extra'],
      [
        { roomId: room.id, samples: [{ ...sample(), tracks: [{ ...sample().tracks[0], lossPct: 101 }] }] },
        'samples.0.tracks.0.lossPct',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await report('cy', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await countSamples()).toBe(before);
  });

  it('too frequent: 429 RATE_LIMITED with Retry-After beyond 4 reports per 30 s', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await report('dee', { roomId: room.id, samples: [sample()] });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.error.code).toBe('RATE_LIMITED');
        retryAfter = res.headers.get('retry-after');
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const series = await db().qualitySeries.findFirstOrThrow({ where: { participantId: people.dee.id } });
    expect(series.sampleCount).toBe(4);
    expect(await db().qualitySample.count({ where: { seriesId: series.id } })).toBe(4);
  });

  it('for another room: 403 FORBIDDEN; for another or an ended session: 409 SESSION_NOT_LIVE', async () => {
    const before = await countSamples();
    const wrongRoom = await report('eve', { roomId: otherRoom.id, samples: [sample()] });
    expect(wrongRoom.status).toBe(403);
    expect(wrongRoom.body.error.code).toBe('FORBIDDEN');
    // Another room's live session.
    const [oz] = Object.values(await joinPeople(suite, t.key, otherRoom.id, [['oz', 'ATTENDEE']]));
    await connect(otherRoom.mediaRoomName, oz);
    const otherSession = await db().roomSession.findFirstOrThrow({ where: { roomId: otherRoom.id } });
    const wrongSession = await report('eve', { roomId: room.id, sessionId: otherSession.id, samples: [sample()] });
    expect(wrongSession.status).toBe(409);
    expect(wrongSession.body.error.code).toBe('SESSION_NOT_LIVE');
    expect(wrongSession.body.error.details[0]).toEqual({
      field: 'sessionId',
      message: `the live session is ${sessionId}`,
    });
    expect(await countSamples()).toBe(before);
  });

  it('with a tenant key or no credential: 401 UNAUTHENTICATED', async () => {
    const before = await countSamples();
    const withKey = await suite.api('POST', '/api/v1/me/quality', {
      key: t.key,
      body: { roomId: room.id, samples: [sample()] },
    });
    expect(withKey.status).toBe(401);
    expect(withKey.body.error.code).toBe('UNAUTHENTICATED');
    const forged = await suite.api('POST', '/api/v1/me/quality', {
      bearer: `${people.fay.token.slice(0, -4)}AAAA`,
      body: { roomId: room.id, samples: [sample()] },
    });
    expect(forged.status).toBe(401);
    expect(await countSamples()).toBe(before);
  });

  it('from a removed participant: 403 FORBIDDEN', async () => {
    expect((await report('fay', { roomId: room.id, samples: [sample()] })).status).toBe(201);
    const before = await countSamples();
    const removed = await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${people.fay.id}/remove`, {
      key: t.key,
    });
    expect(removed.status).toBe(200);
    const res = await report('fay', { roomId: room.id, samples: [sample()] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(await countSamples()).toBe(before);
  });

  it('from someone who left: what waited as they left is filed; 30 s later, 409 INVALID_STATE', async () => {
    await connect(room.mediaRoomName, people.hal, 'participant_left');
    expect((await db().participant.findUniqueOrThrow({ where: { id: people.hal.id } })).connectionState).toBe(
      'DISCONNECTED',
    );
    const before = await countSamples();
    const last = await report('hal', { roomId: room.id, samples: [sample({ ageMs: 20_000 }), sample()] });
    expect([last.status, last.body.stored]).toEqual([201, 2]);
    await db().participant.update({
      where: { id: people.hal.id },
      data: { leftAt: new Date(Date.now() - QUALITY_REPORT_AFTER_LEAVING_MS - 1000) },
    });
    const late = await report('hal', { roomId: room.id, samples: [sample()] });
    expect([late.status, late.body.error?.code]).toEqual([409, 'INVALID_STATE']);
    expect(await countSamples()).toBe(before + 2);
  });

  it(`past ${QUALITY_SAMPLES_PER_SERIES} samples in a session: 409 QUALITY_SAMPLES_FULL`, async () => {
    expect((await report('gus', { roomId: room.id, samples: [sample()] })).status).toBe(201);
    await db().qualitySeries.updateMany({
      where: { participantId: people.gus.id },
      data: { sampleCount: QUALITY_SAMPLES_PER_SERIES - 1 },
    });
    const before = await countSamples();
    const res = await report('gus', { roomId: room.id, samples: [sample(), sample()] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('QUALITY_SAMPLES_FULL');
    expect(await countSamples()).toBe(before);
    const fits = await report('gus', { roomId: room.id, samples: [sample()] });
    expect(fits.status).toBe(201);
  });

  it('once the room has ended: 409 SESSION_NOT_LIVE', async () => {
    const ended = await suite.api('POST', `/api/v1/rooms/${otherRoom.id}/end`, { key: t.key });
    expect(ended.status).toBe(200);
    const [pia] = Object.values(await joinPeople(suite, t.key, otherRoom.id, [['pia', 'ATTENDEE']]));
    const res = await suite.api('POST', '/api/v1/me/quality', {
      bearer: pia.token,
      body: { roomId: otherRoom.id, samples: [sample()] },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('SESSION_NOT_LIVE');
  });
});

describe('the pre-call connection test', () => {
  it('mints a sender and a receiver for a private media room of their own, at most 6 a minute', async () => {
    const res = await suite.api('POST', '/api/v1/me/connection-test', { bearer: people.hal.token });
    expect(res.status).toBe(201);
    expect(res.body.mediaUrl).toBe(suite.env.LIVEKIT_URL);
    expect(res.body.roomName).toMatch(/^cvtest_/);
    const verifier = new TokenVerifier(suite.env.LIVEKIT_API_KEY, suite.env.LIVEKIT_API_SECRET);
    const send = await verifier.verify(res.body.sendToken);
    const receive = await verifier.verify(res.body.receiveToken);
    expect(send.video).toMatchObject({
      room: res.body.roomName,
      roomJoin: true,
      canPublish: true,
      canSubscribe: false,
    });
    expect(receive.video).toMatchObject({
      room: res.body.roomName,
      roomJoin: true,
      canPublish: false,
      canSubscribe: true,
    });
    // Not the participant's identity: a second connection as them would enter the meeting.
    expect([send.sub, receive.sub]).not.toContain(people.hal.mediaIdentity);
    expect(res.body.roomName).not.toBe(room.mediaRoomName);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await suite.api('POST', '/api/v1/me/connection-test', { bearer: people.hal.token })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('retention', () => {
  it('deletes samples older than RETENTION_DAYS, then series left without any', async () => {
    const series = await db().qualitySeries.findFirstOrThrow({ where: { participantId: people.bob.id } });
    const old = new Date(Date.now() - 40 * 86_400_000);
    await db().qualitySample.updateMany({ where: { seriesId: series.id }, data: { at: old } });
    await db().qualitySeries.update({ where: { id: series.id }, data: { createdAt: old, lastAt: old } });
    const kept = await db().qualitySample.count({ where: { seriesId: { not: series.id } } });
    const pruned = await pruneQuality(new Date(), 30, 2);
    expect(pruned.series).toBe(1);
    expect(pruned.samples).toBeGreaterThan(0);
    expect(await db().qualitySeries.findUnique({ where: { id: series.id } })).toBeNull();
    expect(await db().qualitySample.count()).toBe(kept);
  });
});
