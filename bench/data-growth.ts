/**
 * `BENCH_PARTS=data-growth`: does a tenant's request cost stay flat as its history grows?
 * (issue 47). One tenant's history is built with SQL bulk inserts shaped like a year of real use —
 * for every 10 participants a room, 2 sessions, a connection each, 9.6 events each with its webhook
 * delivery and 1.17 attempts per delivery, 19 chat messages kept over the last 30 days (retention:
 * nothing older, attempt bodies past RETENTION_DAYS blanked), a recording per 100 — first at
 * SMALL, then grown in place to LARGE (100× SMALL), and the same endpoints, console pages and one
 * lifecycle run are timed at each size: median and p95 of sequential requests, and the ratio.
 * A handful of live rooms (waiting, active with people connected) stay the same at both sizes: what
 * is live does not grow with the history.
 */
import pg from 'pg';
import { percentile } from './stats';

const PHI = 0.6180339887498949;
const DAY_MS = 86_400_000;

export interface HistoryShape {
  rooms: number;
  sessions: number;
  events: number;
  attempts: number;
  chat: number;
  recordings: number;
}

/** How many rows of each kind a history of `participants` holds. */
export function shapeOf(participants: number): HistoryShape {
  return {
    rooms: Math.ceil(participants / 10),
    sessions: Math.ceil(participants / 5),
    events: Math.floor(participants * 0.96),
    attempts: Math.floor(participants * 1.17),
    chat: Math.floor(participants * 1.9),
    recordings: Math.ceil(participants / 100),
  };
}

/**
 * Grows a tenant's history from `from` to `to` participants (its live rooms: addLiveRooms).
 * Times are spread over the year before `now` by a low-discrepancy sequence, so the rows added by
 * a growth step are spread over the same year as those before. `tag` keeps ids apart between
 * tenants. Triggers are off while loading (session_replication_role, a superuser setting): the
 * rollups and Event.roomId they would keep are written here in bulk instead.
 */
export async function growTenantHistory(
  client: pg.ClientBase,
  {
    tenantId,
    tag,
    from,
    to,
    now,
    retentionDays = 30,
  }: { tenantId: string; tag: string; from: number; to: number; now: Date; retentionDays?: number },
) {
  const a = shapeOf(from);
  const b = shapeOf(to);
  const base = [tenantId, tag, now] as const;
  // A room's time: up to a year before now (and at least two hours), the same for every size.
  const roomTime = (k: string) =>
    `($3::timestamp - interval '2 hours' - interval '365 days' * ((${k} * ${PHI}) - floor(${k} * ${PHI})))`;
  const range = (lo: number, hi: number) => `generate_series(${lo}::int, ${hi - 1}::int)`;
  // Every statement uses $1 ($2, $3) up to the last it names: pass that many.
  const run = (text: string) =>
    client.query(text, base.slice(0, Math.max(...[...text.matchAll(/\$(\d)/g)].map((m) => Number(m[1])))));
  const cutoffSql = `($3::timestamp - interval '${retentionDays} days')`;
  const started = Date.now();
  await client.query(`SET session_replication_role = replica`);
  try {
    await run(`
        INSERT INTO "Room" (id, "tenantId", name, slug, "mediaRoomName", status, "startedAt", "endedAt", duration,
                            "createdByExternalId", "createdAt", "updatedAt")
        SELECT $2 || 'r' || k, $1, 'Room ' || k, 'room-' || k, $2 || '-room-' || k, 'ENDED',
               t + interval '1 minute', t + interval '46 minutes', 2700, 'bench', t, t + interval '46 minutes'
        FROM ${range(a.rooms, b.rooms)} k, LATERAL (SELECT ${roomTime('k')} AS t) x`);
    // Participants: room i % rooms, in it for 30 minutes.
    await run(`
      INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "mediaIdentity", role,
                                 "connectionState", "joinedAt", "leftAt", duration, "createdAt", "updatedAt")
      SELECT $2 || 'p' || i, $2 || 'r' || (i % ${b.rooms}), $1, 'user-' || i, 'User ' || i, $2 || '-p-' || i,
             CASE WHEN i % ${b.rooms} = 0 THEN 'HOST' ELSE 'ATTENDEE' END::"ParticipantRole", 'DISCONNECTED',
             t, t + interval '30 minutes', 1800, t, t + interval '30 minutes'
      FROM ${range(from, to)} i,
           LATERAL (SELECT ${roomTime(`(i % ${b.rooms})`)} + interval '1 minute' * ((i / ${b.rooms}) % 20) AS t) x`);
    // Sessions: session j in room j % rooms, each 45 minutes (a participant's is the one numbered as its room).
    await run(`
      INSERT INTO "RoomSession" (id, "tenantId", "roomId", "startedAt", "endedAt", duration, "peakParticipants",
                                 "uniqueAttendees", "createdAt")
      SELECT $2 || 's' || j, $1, $2 || 'r' || (j % ${b.rooms}),
             t, t + interval '45 minutes', 2700, 10, 10, t
      FROM ${range(a.sessions, b.sessions)} j,
           LATERAL (SELECT ${roomTime(`(j % ${b.rooms})`)} + interval '1 hour' * (j / ${b.rooms}) AS t) x`);
    await run(`
      INSERT INTO "SessionConnection" (id, "sessionId", "tenantId", "roomId", "participantId", "connectionKey",
                                       "joinedAt", "leftAt", "closedBy", "createdAt")
      SELECT $2 || 'c' || i, $2 || 's' || (i % ${b.rooms}), $1, $2 || 'r' || (i % ${b.rooms}), $2 || 'p' || i,
             'PA_' || i, p."joinedAt", p."leftAt", 'LEFT', p."joinedAt"
      FROM ${range(from, to)} i JOIN "Participant" p ON p.id = $2 || 'p' || i`);
    // Events, each with one delivery (one in 33 failed).
    await run(`
      INSERT INTO "Event" (id, "tenantId", name, data, "roomId", "occurredAt", "createdAt")
      SELECT 'evt_' || $2 || e, $1, (ARRAY['participant.joined', 'participant.left', 'room.started', 'room.finished'])[1 + e % 4],
             jsonb_build_object('roomId', $2 || 'r' || (e % ${b.rooms}), 'participantId', $2 || 'p' || e),
             $2 || 'r' || (e % ${b.rooms}), t, t
      FROM ${range(a.events, b.events)} e,
           LATERAL (SELECT ${roomTime(`(e % ${b.rooms})`)} + interval '1 second' * (e / ${b.rooms}) AS t) x`);
    await run(`
      INSERT INTO "WebhookDelivery" (id, "tenantId", "eventId", "eventName", url, status, "attemptCount", "deliveredAt",
                                     "lastError", "createdAt", "updatedAt")
      SELECT $2 || 'wd' || e, $1, ev.id, ev.name, 'https://hooks.example.com/convene',
             CASE WHEN e % 33 = 0 THEN 'FAILED' ELSE 'DELIVERED' END::"DeliveryStatus", 1,
             CASE WHEN e % 33 = 0 THEN NULL ELSE ev."occurredAt" END, CASE WHEN e % 33 = 0 THEN 'HTTP 500' END,
             ev."occurredAt", ev."occurredAt"
      FROM ${range(a.events, b.events)} e JOIN "Event" ev ON ev.id = 'evt_' || $2 || e`);
    // Attempts: delivery a % deliveries, numbered by a / deliveries; bodies blanked past retention.
    await run(
      `
      INSERT INTO "WebhookAttempt" (id, "deliveryId", "attemptNumber", "requestUrl", "requestHeaders", "requestBody",
                                    "responseStatus", "responseBody", "durationMs", "willRetry", "createdAt")
      SELECT $2 || 'wa' || a, d.id, 1 + a / ${b.events}, d.url, '{"content-type":"application/json"}'::jsonb,
             CASE WHEN d."createdAt" < ${cutoffSql} THEN '' ELSE repeat('{"event":"participant.joined"}', 10) END,
             200, CASE WHEN d."createdAt" < ${cutoffSql} THEN NULL ELSE 'ok' END, 40, false, d."createdAt"
      FROM ${range(a.attempts, b.attempts)} a JOIN "WebhookDelivery" d ON d.id = $2 || 'wd' || (a % ${b.events}) AND d."tenantId" = $1
      ON CONFLICT ("deliveryId", "attemptNumber") DO NOTHING`,
    );
    // Chat: only the last RETENTION_DAYS are kept; the few a 30-second lifecycle interval makes due
    // sit just past the cutoff, as they would between two runs.
    const duePer30s = Math.ceil((b.chat - a.chat) / ((retentionDays * DAY_MS) / 30_000));
    await run(
      `
      INSERT INTO "ChatMessage" (id, "tenantId", "roomId", "senderParticipantId", "senderExternalId", "senderName", text, "createdAt")
      SELECT $2 || 'm' || m, $1, $2 || 'r' || (m % ${b.rooms}), $2 || 'p' || (m % ${to}), 'user-' || (m % ${to}),
             'User', 'message ' || m,
             CASE WHEN m < ${a.chat + duePer30s} THEN ${cutoffSql} - interval '1 second' * (m % 30)
                  ELSE $3::timestamp - interval '1 minute'
                       - ($3::timestamp - ${cutoffSql} - interval '2 minutes') * ((m * ${PHI}) - floor(m * ${PHI})) END
      FROM ${range(a.chat, b.chat)} m`,
    );
    await run(`
      INSERT INTO "Recording" (id, "tenantId", "roomId", "mediaEgressId", status, preset, "storageKey", "sizeBytes",
                               duration, "startedAt", "endedAt", "createdAt", "updatedAt")
      SELECT $2 || 'rec' || q, $1, $2 || 'r' || (q % ${b.rooms}), $2 || '-eg-' || q, 'COMPLETED', 'H264_720P_30',
             'recordings/' || q || '.mp4', 50000000, 2700, t, t + interval '45 minutes', t, t + interval '45 minutes'
      FROM ${range(a.recordings, b.recordings)} q, LATERAL (SELECT ${roomTime(`(q % ${b.rooms})`)} AS t) x`);
    await rollups(client, tenantId, to, now);
  } finally {
    await client.query(`SET session_replication_role = origin`);
  }
  return { seconds: Math.round((Date.now() - started) / 100) / 10 };
}

/**
 * A tenant's live rooms, the same whatever its history: 20 waiting (auto-end tomorrow) and 5 active
 * with 3 people connected in an open session.
 */
export async function addLiveRooms(
  client: pg.ClientBase,
  { tenantId, tag, now }: { tenantId: string; tag: string; now: Date },
) {
  const params = [tenantId, tag, now];
  await client.query(
    `INSERT INTO "Room" (id, "tenantId", name, slug, "mediaRoomName", status, "autoEndAt", "startedAt",
                         "activeParticipants", "createdByExternalId", "createdAt", "updatedAt")
     SELECT $2 || 'live' || k, $1, 'Live ' || k, 'live-' || k, $2 || '-live-' || k,
            CASE WHEN k < 5 THEN 'ACTIVE' ELSE 'WAITING' END::"RoomStatus",
            CASE WHEN k < 5 THEN NULL ELSE $3::timestamp + interval '1 day' END,
            CASE WHEN k < 5 THEN $3::timestamp - interval '20 minutes' END, CASE WHEN k < 5 THEN 3 ELSE 0 END,
            'bench', $3::timestamp - interval '30 minutes', $3
     FROM generate_series(0, 24) k`,
    params,
  );
  await client.query(
    `INSERT INTO "RoomSession" (id, "tenantId", "roomId", "startedAt", "peakParticipants", "uniqueAttendees")
     SELECT $2 || 'slive' || k, $1, $2 || 'live' || k, $3::timestamp - interval '20 minutes', 3, 3 FROM generate_series(0, 4) k`,
    params,
  );
  await client.query(
    `INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "mediaIdentity",
                                "connectionState", "joinedAt", "createdAt", "updatedAt")
     SELECT $2 || 'plive' || n, $2 || 'live' || (n / 3), $1, 'live-' || n, 'Live ' || n, $2 || '-plive-' || n,
            'CONNECTED', $3::timestamp - interval '19 minutes', $3::timestamp - interval '19 minutes', $3
     FROM generate_series(0, 14) n`,
    params,
  );
  await client.query(
    `INSERT INTO "SessionConnection" (id, "sessionId", "tenantId", "roomId", "participantId", "connectionKey", "joinedAt")
     SELECT $2 || 'clive' || n, $2 || 'slive' || (n / 3), $1, $2 || 'live' || (n / 3), $2 || 'plive' || n, 'PA_live_' || n,
            $3::timestamp - interval '19 minutes'
     FROM generate_series(0, 14) n`,
    params,
  );
}

/** The tenant's daily rollups, as the triggers keep them, plus a steady count of API requests. */
async function rollups(client: pg.ClientBase, tenantId: string, participants: number, now: Date) {
  await client.query(`DELETE FROM "UsageCounter" WHERE "tenantId" = $1`, [tenantId]);
  await client.query(
    `INSERT INTO "UsageCounter" ("tenantId", day, metric, value)
     SELECT "tenantId", "leftAt"::date, 'participant_seconds', sum(duration) FROM "Participant"
       WHERE "tenantId" = $1 AND "leftAt" IS NOT NULL AND duration IS NOT NULL GROUP BY 1, 2
     UNION ALL
     SELECT "tenantId", "startedAt"::date, 'sessions_started', count(*) FROM "RoomSession" WHERE "tenantId" = $1 GROUP BY 1, 2
     UNION ALL
     SELECT "tenantId", "createdAt"::date, CASE status WHEN 'DELIVERED' THEN 'webhooks_delivered' ELSE 'webhooks_failed' END, count(*)
       FROM "WebhookDelivery" WHERE "tenantId" = $1 AND status IN ('DELIVERED', 'FAILED') GROUP BY 1, 2, 3
     UNION ALL
     SELECT $1, d::date, 'api_requests', $2 FROM generate_series($3::timestamp - interval '365 days', $3::timestamp, interval '1 day') d`,
    [tenantId, Math.ceil(participants / 10), now],
  );
}

/** Median and p95 (ms) of a list of times. */
function summary(times: number[]) {
  return { median: percentile(times, 50), p95: percentile(times, 95) };
}

async function timed(fn: () => Promise<unknown>) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

type Probe = { name: string; run: () => Promise<unknown> };

/**
 * Times every probe of every set: `rounds` rounds, each running every probe `perRound` times for
 * each set in turn (the order of probes rotated each round), after five unmeasured warm-up runs
 * each. Sets measured together meet the same moments of a shared machine's load.
 */
async function measure(sets: Probe[][], { rounds, perRound }: { rounds: number; perRound: number }) {
  const times = sets.map((probes) => probes.map(() => [] as number[]));
  for (let n = 0; n < 5; n++) for (const probes of sets) for (const probe of probes) await probe.run();
  for (let round = 0; round < rounds; round++) {
    const count = sets[0].length;
    for (let k = 0; k < count; k++) {
      const i = (k + round) % count;
      for (let n = 0; n < perRound; n++)
        for (const [s, probes] of sets.entries()) times[s][i].push(await timed(probes[i].run));
    }
  }
  return times.map((perProbe) => perProbe.map(summary));
}

interface GrowthTenant {
  tenantId: string;
  apiKey: string;
  cookie: string;
  tag: string;
  participants: number;
}

/** A tenant of its own for the bench, with an owner's console session. */
async function growthTenant(
  name: string,
  tag: string,
  signIn: (user: { email: string; password: string }) => Promise<string>,
): Promise<Omit<GrowthTenant, 'participants'>> {
  const { db } = await import('../lib/db');
  const { provisionTenant } = await import('../lib/domain/tenants');
  const { createConsoleUser } = await import('../lib/domain/console');
  const user = { email: `${tag}@growth.bench`, password: `pw-${tag}-${Date.now().toString(36)}` };
  const tenant = await db().$transaction(async (tx) => {
    const t = await provisionTenant(
      {
        name,
        plan: 'enterprise',
        entitlementOverrides: {
          apiRequestsPerSecond: 1_000_000,
          concurrentLiveRooms: 1_000_000,
          maxParticipantsPerRoom: 10_000,
        },
      },
      { tx },
    );
    await createConsoleUser({ ...user, role: 'OWNER', tenantId: t.tenant.id }, { tx });
    return t;
  });
  return { tenantId: tenant.tenant.id, apiKey: tenant.plainTextKey, cookie: await signIn(user), tag };
}

/** The page of a list halfway down the rooms (its cursor made as the API makes it). */
async function halfwayRoomsCursor(client: pg.ClientBase, tenantId: string) {
  const { rows } = await client.query(
    `SELECT id, "createdAt" FROM "Room" WHERE "tenantId" = $1 ORDER BY "createdAt" DESC, id DESC
     OFFSET (SELECT count(*) / 2 FROM "Room" WHERE "tenantId" = $1) LIMIT 1`,
    [tenantId],
  );
  const [row] = rows as { id: string; createdAt: Date }[];
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

/** Every endpoint and console page of issue 47, for one tenant. */
async function probesFor(client: pg.ClientBase, base: string, t: GrowthTenant): Promise<Probe[]> {
  const get = (path: string, headers: Record<string, string>) => async () => {
    const res = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  };
  const api = (path: string) => get(`/api/v1${path}`, { 'x-api-key': t.apiKey });
  const page = (path: string) => get(path, { cookie: t.cookie });
  const oldRoom = `${t.tag}r${Math.floor(shapeOf(t.participants).rooms / 2)}`;
  const newRoom = (
    await client.query(
      `SELECT id FROM "Room" WHERE "tenantId" = $1 AND status = 'ENDED' ORDER BY "createdAt" DESC LIMIT 1`,
      [t.tenantId],
    )
  ).rows[0].id as string;
  const joinRoom = await fetch(`${base}/api/v1/rooms`, {
    method: 'POST',
    headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ createdByExternalId: 'bench', maxParticipants: 10_000 }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  let joins = 0;
  const join = async () => {
    const res = await fetch(`${base}/api/v1/rooms/${joinRoom.id}/join`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ externalUserId: `growth-${joins++}`, displayName: 'Bench' }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`join: HTTP ${res.status}`);
  };
  return [
    { name: 'POST /rooms/{id}/join', run: join },
    { name: 'GET /rooms/{id} (half-year-old room)', run: api(`/rooms/${oldRoom}`) },
    { name: 'GET /rooms (first page)', run: api('/rooms') },
    {
      name: 'GET /rooms (halfway down the list)',
      run: api(`/rooms?cursor=${await halfwayRoomsCursor(client, t.tenantId)}`),
    },
    { name: 'GET /tenant/usage', run: api('/tenant/usage') },
    { name: 'GET /presence', run: api('/presence') },
    { name: 'GET /sessions', run: api('/sessions') },
    { name: 'GET /webhooks/deliveries', run: api('/webhooks/deliveries') },
    { name: 'GET /recordings', run: api('/recordings') },
    { name: 'GET /rooms/{id}/chat (export)', run: api(`/rooms/${oldRoom}/chat`) },
    { name: 'console: dashboard', run: page('/console') },
    { name: 'console: rooms', run: page('/console/rooms') },
    { name: 'console: room page (newest room)', run: page(`/console/rooms/${newRoom}`) },
    { name: 'console: room page (half-year-old room)', run: page(`/console/rooms/${oldRoom}`) },
    { name: 'console: webhooks', run: page('/console/webhooks') },
    { name: 'console: recordings', run: page('/console/recordings') },
  ];
}

/** After a bulk load, as a database that has lived with its data would be: vacuumed, analyzed, checkpointed. */
async function settle(client: pg.ClientBase) {
  await client.query('VACUUM (ANALYZE)');
  await client.query('CHECKPOINT');
}

/**
 * Two tenants on one server and database: SMALL's history is built and measured alone (the
 * database holds only it), then LARGE's (100×) is built and both are measured again, interleaved,
 * so the two sizes meet the same load. Ratios: LARGE against SMALL alone (the database grew 100×
 * meanwhile, as in the issue) and against SMALL measured beside it (the same moments of load).
 */
export async function dataGrowthBench({
  base,
  databaseUrl,
  signIn,
  small = Number(process.env.BENCH_GROWTH_SMALL ?? 10_000),
  large = Number(process.env.BENCH_GROWTH_LARGE ?? 1_000_000),
  rounds = Number(process.env.BENCH_GROWTH_ROUNDS ?? 4),
  perRound = Number(process.env.BENCH_GROWTH_PER_ROUND ?? 10),
}: {
  base: string;
  databaseUrl: string;
  signIn: (user: { email: string; password: string }) => Promise<string>;
  small?: number;
  large?: number;
  rounds?: number;
  perRound?: number;
}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const now = new Date();
  const { runLifecycle } = await import('../lib/domain/lifecycle');
  const lifecycle: Probe = { name: 'lifecycle run (all tenants)', run: () => runLifecycle(new Date()) };
  try {
    const smallTenant = { ...(await growthTenant('Growth SMALL', 'gs', signIn)), participants: small };
    const largeTenant = { ...(await growthTenant('Growth LARGE', 'gl', signIn)), participants: large };
    // Both tenants' live rooms from the start: the lifecycle job's live work (reconciling active
    // rooms with the media layer) is the same at both sizes, and only the history grows.
    for (const t of [smallTenant, largeTenant]) await addLiveRooms(client, { ...t, now });
    console.log(`▸ data growth: building SMALL, ${small.toLocaleString('en')} participants`);
    const builtSmall = await growTenantHistory(client, { ...smallTenant, from: 0, to: small, now });
    await settle(client);
    const sizeOf = async () =>
      Math.round(Number((await client.query(`SELECT pg_database_size(current_database()) AS b`)).rows[0].b) / 1048576);
    const smallDbMb = await sizeOf();
    const smallProbes = await probesFor(client, base, smallTenant);
    const [alone] = await measure([[...smallProbes, lifecycle]], { rounds, perRound });
    console.log(`▸ data growth: building LARGE, ${large.toLocaleString('en')} participants`);
    const builtLarge = await growTenantHistory(client, { ...largeTenant, from: 0, to: large, now });
    await settle(client);
    const largeDbMb = await sizeOf();
    const largeProbes = await probesFor(client, base, largeTenant);
    // The lifecycle run is the database's, not a tenant's: measured once per round in the LARGE set.
    const [beside, grown] = await measure(
      [
        [...smallProbes, { name: lifecycle.name, run: async () => undefined }],
        [...largeProbes, lifecycle],
      ],
      { rounds, perRound },
    );
    const ms = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toString());
    const names = [...smallProbes, lifecycle].map((p) => p.name);
    const rows = names.map((name, i) => ({
      name,
      s: alone[i],
      b: beside[i],
      l: grown[i],
      ratio: grown[i].median / alone[i].median,
      ratioBeside: name === lifecycle.name ? null : grown[i].median / beside[i].median,
    }));
    const shape = (n: number) => {
      const s = shapeOf(n);
      return `${n.toLocaleString('en')} participants, ${s.rooms.toLocaleString('en')} rooms, ${s.sessions.toLocaleString('en')} sessions, ${s.chat.toLocaleString('en')} chat messages, ${s.events.toLocaleString('en')} events and deliveries, ${s.attempts.toLocaleString('en')} attempts`;
    };
    const lifecycleRow = rows.at(-1)!;
    const markdown = [
      '## Data growth: a tenant with 100× the history',
      '',
      `bench/data-growth.ts: a year of history per tenant, built by SQL bulk inserts; each figure from ${rounds} rounds × ${perRound} sequential requests (ms), probes interleaved. SMALL is measured with only its own history in the database; then LARGE's is added and LARGE is measured beside SMALL (same moments of the machine's load). Goal: every ratio ≤ 1.5; one lifecycle run ≤ 150 ms at LARGE.`,
      '',
      `- SMALL: ${shape(small)} (built in ${builtSmall.seconds} s; database ${smallDbMb.toLocaleString('en')} MB)`,
      `- LARGE: ${shape(large)} (built in ${builtLarge.seconds} s; database ${largeDbMb.toLocaleString('en')} MB)`,
      '',
      '| endpoint or page | SMALL median | SMALL p95 | LARGE median | LARGE p95 | ratio | SMALL beside LARGE: median | ratio to it |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${ms(r.s.median)} | ${ms(r.s.p95)} | ${ms(r.l.median)} | ${ms(r.l.p95)} | ${r.ratio.toFixed(2)}${r.ratio > 1.5 ? ' ✗' : ''} | ${r.ratioBeside === null ? '—' : ms(r.b.median)} | ${r.ratioBeside === null ? '—' : `${r.ratioBeside.toFixed(2)}${r.ratioBeside > 1.5 ? ' ✗' : ''}`} |`,
      ),
      '',
      `Worst ratio: ${Math.max(...rows.map((r) => r.ratio)).toFixed(2)} (to SMALL alone), ${Math.max(...rows.map((r) => r.ratioBeside ?? 0)).toFixed(2)} (to SMALL beside it); one lifecycle run at LARGE: median ${ms(lifecycleRow.l.median)} ms, p95 ${ms(lifecycleRow.l.p95)} ms.`,
      '',
    ].join('\n');
    return { markdown };
  } finally {
    await client.end();
  }
}
