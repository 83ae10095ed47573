/**
 * `BENCH_PARTS=telemetry`: what call-quality telemetry costs the app. 1,000 participants (10 rooms
 * of 100, each with a live session) sample every 10 s and report three samples every 30 s, as the
 * call does (lib/domain/quality-limits.ts) — 33 reports a second — offered open-loop (bench/open-loop.ts) with each participant's own token, beside GET /health at the same
 * rate in the same run. Reported: the server's CPU per request for both and their ratio, and the
 * share of one core the reports take (the goal: at most 10 % of the app's CPU), idle subtracted.
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
import { openLoopRun, serverCpu } from './measure';
import { QUALITY_REPORT_INTERVAL_MS, QUALITY_SAMPLE_INTERVAL_MS } from '../lib/domain/quality-limits';

const PARTICIPANTS = 1000;
const ROOMS = 10;
/** Samples in a report, and reports a second: every participant once per QUALITY_REPORT_INTERVAL_MS. */
const SAMPLES = QUALITY_REPORT_INTERVAL_MS / QUALITY_SAMPLE_INTERVAL_MS;
const RATE = Math.round((PARTICIPANTS * 1000 * 10) / QUALITY_REPORT_INTERVAL_MS) / 10;

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
  // 1,000 participants over 10 rooms, each room with a live session (as the media layer's first
  // connection would open it), the participants handed their tokens (PENDING: in the call).
  const rooms: string[] = [];
  for (let r = 0; r < ROOMS; r++)
    rooms.push((await post('/api/v1/rooms', { createdByExternalId: 'bench', maxParticipants: 1000 })).id);
  const tokens: { token: string; roomId: string }[] = [];
  for (let i = 0; i < PARTICIPANTS; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, PARTICIPANTS - i) }, (_, k) => {
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
  const file = path.join(tmpdir(), `convene-bench-reporters-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(
    file,
    JSON.stringify(tokens.map((t) => ({ token: t.token, body: JSON.stringify(sampleReport(t.roomId)) }))),
  );

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
  const share = reportsCpuMs !== null ? reportsCpuMs / (seconds * 1000) : null;
  const shareLessIdle = share !== null ? share - idleMsPerS / 1000 : null;
  const ratio =
    reports.cpuMsPerReq && health.cpuMsPerReq
      ? Math.round((reports.cpuMsPerReq / health.cpuMsPerReq) * 100) / 100
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
    '| goal | measured |',
    '|---|---|',
    `| telemetry of 1,000 participants (${RATE} reports/s) ≤ 10 % of the app's CPU (one core) | ${pct(share)} (${pct(shareLessIdle)} above idle)${failed ? ` — not comparable: ${failed} reports failed or were refused` : ''} |`,
    `| a report's server CPU vs GET /health's | ${ratio ?? '?'}× |`,
    '',
  ].join('\n');
  return { markdown, share, shareLessIdle, ratio, health, reports };
}
