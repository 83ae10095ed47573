/**
 * `BENCH_PARTS=telemetry`: what call-quality telemetry costs the app. 1,000 participants (10 rooms
 * of 100, each with a live session) sample every 10 s and report their samples in one request per
 * QUALITY_REPORT_INTERVAL_MS, as the call does (lib/domain/quality-limits.ts), offered open-loop
 * (bench/open-loop.ts) with each participant's own token, beside GET /health at the same rate in
 * the same run. Reported against two denominators:
 *
 * - one core: the server's CPU per request for both and their ratio, and the share of one core
 *   the reports take (the goal: at most 10 % of the app's CPU), idle subtracted;
 * - the app's capacity: reports and GET /health closed-loop at saturation (CAPACITY_CONCURRENCY
 *   clients, autocannon in the runner, interleaved rounds), and the offered rate as a share of
 *   the reports the app serves at full load. At a low rate every request also pays the server's
 *   per-wake-up cost, which a loaded server spreads over many; the capacity says what the rate
 *   takes from what the app can actually serve.
 *
 * A report is what a call in a six-person meeting sends: its camera and microphone, and the
 * cameras and microphones of five others (12 tracks), with its connection.
 */
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type BenchContext, DURATION } from './harness';
import { load, merge, openLoopRun, type Row, serverCpu } from './measure';
import { QUALITY_REPORT_INTERVAL_MS, QUALITY_SAMPLE_INTERVAL_MS } from '../lib/domain/quality-limits';

const PARTICIPANTS = 1000;
/**
 * Reporters for the capacity runs: a participant may report QUALITY_REPORTS_PER_WINDOW times per
 * window, so saturation needs more of them than the open-loop run (which uses the first PARTICIPANTS).
 */
const CAPACITY_REPORTERS = 3000;
const ROOMS = 10;
/** Samples in a report, and reports a second: every participant once per QUALITY_REPORT_INTERVAL_MS. */
const SAMPLES = QUALITY_REPORT_INTERVAL_MS / QUALITY_SAMPLE_INTERVAL_MS;
const RATE = Math.round((PARTICIPANTS * 1000 * 10) / QUALITY_REPORT_INTERVAL_MS) / 10;
/** Closed-loop clients for the capacity runs, and the interleaved rounds DURATION is split into. */
const CAPACITY_CONCURRENCY = Number(process.env.BENCH_TELEMETRY_CONCURRENCY ?? 16);
const CAPACITY_ROUNDS = 2;

export function sampleReport(roomId: string) {
  const receive = (from: string) => [
    {
      direction: 'receive',
      kind: 'video',
      source: 'camera',
      from,
      kbps: 420.5,
      fps: 24.3,
      width: 640,
      height: 360,
      lossPct: 0.4,
      jitterMs: 6.1,
      freezes: 0,
    },
    {
      direction: 'receive',
      kind: 'audio',
      source: 'microphone',
      from,
      kbps: 31.2,
      lossPct: 0.2,
      jitterMs: 4.4,
      concealedPct: 0.6,
    },
  ];
  return {
    roomId,
    client: { browser: 'Chrome 131', os: 'macOS', networkType: 'wifi' },
    samples: Array.from({ length: SAMPLES }, (_, i) => ({
      ageMs: 12 + (SAMPLES - 1 - i) * QUALITY_SAMPLE_INTERVAL_MS,
      intervalMs: 10_000,
      tracks: [
        {
          direction: 'send',
          kind: 'video',
          source: 'camera',
          kbps: 1180.4,
          fps: 30,
          width: 1280,
          height: 720,
          lossPct: 0,
          rttMs: 21.5,
          limitation: 'none',
          limitedPct: 0,
        },
        { direction: 'send', kind: 'audio', source: 'microphone', kbps: 32.1, lossPct: 0, rttMs: 21.5 },
        ...['p_a', 'p_b', 'p_c', 'p_d', 'p_e'].flatMap(receive),
      ],
      connection: {
        rttMs: 21.5,
        availableOutKbps: 2650,
        candidateType: 'srflx',
        protocol: 'udp',
        quality: 'excellent',
      },
    })),
  };
}

export async function telemetryBench(ctx: BenchContext) {
  const { base, key, serverGroup } = ctx;
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${base}${p}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  // 3,000 participants over 10 rooms (the first 1,000 report open-loop, all of them at saturation),
  // each room with a live session (as the media layer's first connection would open it), the
  // participants handed their tokens (PENDING: in the call).
  const rooms: string[] = [];
  for (let r = 0; r < ROOMS; r++)
    rooms.push(
      (await post('/api/v1/rooms', { createdByExternalId: 'bench', maxParticipants: CAPACITY_REPORTERS / ROOMS })).id,
    );
  const tokens: { token: string; roomId: string }[] = [];
  for (let i = 0; i < CAPACITY_REPORTERS; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, CAPACITY_REPORTERS - i) }, (_, k) => {
        const roomId = rooms[(i + k) % ROOMS];
        return post(`/api/v1/rooms/${roomId}/join`, { externalUserId: `q_${i + k}`, displayName: 'Reporter' }).then(
          (j) => ({ token: j.token as string, roomId }),
        );
      }),
    );
    tokens.push(...batch);
  }
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    for (const roomId of rooms)
      await client.query(
        `INSERT INTO "RoomSession" (id, "tenantId", "roomId", "startedAt")
         SELECT $1, "tenantId", id, now() FROM "Room" WHERE id = $2`,
        [`bench_${randomBytes(6).toString('hex')}`, roomId],
      );
  } finally {
    await client.end();
  }
  const reporters = tokens.map((t) => ({ token: t.token, body: JSON.stringify(sampleReport(t.roomId)) }));
  const file = path.join(tmpdir(), `convene-bench-reporters-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(reporters.slice(0, PARTICIPANTS)));

  const idleMeter = serverCpu(serverGroup);
  await new Promise((r) => setTimeout(r, 5000));
  const idleMsPerS = (idleMeter() ?? 0) / 5;
  const seconds = Math.max(20, DURATION);
  const health = await openLoopRun(serverGroup, 'GET /health', {
    base,
    method: 'GET',
    path: '/api/v1/health',
    rate: RATE,
    seconds,
  });
  const reportsMeter = serverCpu(serverGroup);
  const reports = await openLoopRun(serverGroup, 'POST /me/quality', {
    base,
    method: 'POST',
    path: '/api/v1/me/quality',
    body: 'per-request',
    requestsFile: file,
    rate: RATE,
    seconds,
  });
  const reportsCpuMs = reportsMeter();

  // Capacity: the same requests closed-loop at saturation, health and reports in interleaved
  // rounds (so load elsewhere on a shared machine falls on both alike). Each participant reports
  // at most QUALITY_REPORTS_PER_WINDOW times per window: the reporters take turns, and any
  // refusal (non-2xx) is shown and leaves the figure out rather than counting as served.
  let next = 0;
  const plan: { name: string; run: (duration: number) => Promise<Row> }[] = [
    {
      name: 'GET /health',
      run: (duration) =>
        load(
          'GET /health',
          base,
          CAPACITY_CONCURRENCY,
          () => ({ method: 'GET', path: '/api/v1/health' }),
          {},
          { group: serverGroup, duration },
        ),
    },
    {
      name: 'POST /me/quality',
      run: (duration) =>
        load(
          'POST /me/quality',
          base,
          CAPACITY_CONCURRENCY,
          () => {
            const r = reporters[next++ % reporters.length];
            return {
              method: 'POST',
              path: '/api/v1/me/quality',
              body: r.body,
              headers: { authorization: `Bearer ${r.token}` },
            };
          },
          {},
          { group: serverGroup, duration },
        ),
    },
  ];
  const rounds = plan.map(() => [] as Row[]);
  const perRound = Math.max(1, Math.round(DURATION / CAPACITY_ROUNDS));
  for (let round = 0; round < CAPACITY_ROUNDS; round++)
    for (let k = 0; k < plan.length; k++) {
      const i = (k + round) % plan.length;
      rounds[i].push(await plan[i].run(perRound));
    }
  const [healthCapacity, reportsCapacity] = rounds.map(merge);
  /** Requests per second answered 2xx at saturation; null when any failed or was refused. */
  const capacityOf = (r: Row) =>
    r.errors + r.non2xx === 0 && r.total && r.seconds ? Math.round(r.total / r.seconds) : null;
  const reportsPerSecond = capacityOf(reportsCapacity);
  const healthPerSecond = capacityOf(healthCapacity);
  const capacityShare = reportsPerSecond ? RATE / reportsPerSecond : null;
  const healthCapacityShare = healthPerSecond ? RATE / healthPerSecond : null;

  const share = reportsCpuMs !== null ? reportsCpuMs / (seconds * 1000) : null;
  const shareLessIdle = share !== null ? share - idleMsPerS / 1000 : null;
  const ratio =
    reports.cpuMsPerReq && health.cpuMsPerReq
      ? Math.round((reports.cpuMsPerReq / health.cpuMsPerReq) * 100) / 100
      : null;
  const capacityRatio =
    reportsCapacity.cpuMsPerReq && healthCapacity.cpuMsPerReq
      ? Math.round((reportsCapacity.cpuMsPerReq / healthCapacity.cpuMsPerReq) * 100) / 100
      : null;
  const pct = (x: number | null) => (x === null ? '?' : `${Math.round(x * 1000) / 10} %`);
  const failed = reports.non2xx + reports.errors;
  const markdown = [
    '## Call-quality telemetry',
    '',
    `${PARTICIPANTS} participants in ${ROOMS} rooms, each sampling 12 tracks every 10 s and reporting ${SAMPLES} samples every ${QUALITY_REPORT_INTERVAL_MS / 1000} s: ${RATE} reports/s offered open-loop for ${seconds} s, beside GET /health at the same rate. Idle server: ${Math.round(idleMsPerS)} ms CPU per second.`,
    '',
    '| endpoint | offered req/s | served req/s | p50 ms | p99 ms | server CPU ms/req | errors | non-2xx |',
    '|---|---|---|---|---|---|---|---|',
    ...[health, reports].map(
      (r) =>
        `| ${r.name} | ${RATE} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpuMsPerReq ?? '?'} | ${r.errors} | ${r.non2xx} |`,
    ),
    '',
    `The app's capacity, measured in the same run: each endpoint closed-loop at saturation, ${CAPACITY_CONCURRENCY} clients (autocannon in the runner, on the same machine: the runner and the database share its cores with the app), ${CAPACITY_ROUNDS} interleaved rounds of ${perRound} s, the reports spread over ${CAPACITY_REPORTERS.toLocaleString('en')} participants. Database CPU: every PostgreSQL process on the machine.`,
    '',
    '| endpoint at saturation | clients | served req/s | p50 ms | p99 ms | server CPU ms/req | database CPU ms/req | errors | non-2xx |',
    '|---|---|---|---|---|---|---|---|---|',
    ...[healthCapacity, reportsCapacity].map(
      (r) =>
        `| ${r.name} | ${r.concurrency} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpuMsPerReq ?? '?'} | ${r.dbCpuMs != null && r.total ? Math.round((r.dbCpuMs / r.total) * 100) / 100 : '?'} | ${r.errors} | ${r.non2xx} |`,
    ),
    '',
    '| goal | measured |',
    '|---|---|',
    `| telemetry of 1,000 participants (${RATE} reports/s) ≤ 10 % of the app's CPU (one core) | ${pct(share)} (${pct(shareLessIdle)} above idle)${failed ? ` — not comparable: ${failed} reports failed or were refused` : ''} |`,
    `| telemetry's share of what the app can serve: ${RATE} reports/s of the ${reportsPerSecond ?? '?'} reports/s it serves at saturation | ${pct(capacityShare)}${reportsPerSecond === null ? ' — not comparable: reports at saturation failed or were refused' : ''} |`,
    `| for comparison: GET /health at ${RATE}/s of the ${healthPerSecond ?? '?'}/s it serves at saturation | ${pct(healthCapacityShare)} |`,
    `| a report's server CPU vs GET /health's, at ${RATE}/s | ${ratio ?? '?'}× |`,
    `| a report's server CPU vs GET /health's, at saturation | ${capacityRatio ?? '?'}× |`,
    '',
  ].join('\n');
  return {
    markdown,
    share,
    shareLessIdle,
    capacityShare,
    ratio,
    capacityRatio,
    health,
    reports,
    healthCapacity,
    reportsCapacity,
  };
}
