/**
 * The API part of `npm run bench` (BENCH_PARTS=api): autocannon from the runner process against
 * the production server, and a bare baseline server for the join (bench/baseline.ts).
 *
 * Every API figure is also reported as a share of GET /health measured in the same run (the
 * framework's floor: no auth, one SELECT 1), and with the server's CPU time per request, so a
 * regression shows even on a shared, noisy machine: compare ratios within one report. Joins run
 * into ONE room (a fresh one for 10,000 per run, the all-hands case) and spread over 20 rooms;
 * an open-loop part offers fixed rates (BENCH_OPEN_LOOP_RATES, default 50,100,200 joins/s) from
 * a generator in its own process (bench/open-loop.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { freePort } from '../e2e/support/app';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags';
import { barChartSvg } from './chart';
import { type BenchContext, DURATION, startProcess, stopProcess } from './harness';
import { databaseCpu, load, merge, type OpenLoopRow, openLoopRun, type Row, serverCpu } from './measure';

const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number);
// Closed-loop runs are split into this many interleaved rounds per concurrency (see below).
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
// Offered rates (joins/s into one room) for the open-loop latency runs.
const OPEN_LOOP_RATES = (process.env.BENCH_OPEN_LOOP_RATES ?? '50,100,200')
  .split(',')
  .map(Number)
  .filter((rate) => rate > 0);

export async function apiBench(ctx: BenchContext) {
  const { base, serverGroup } = ctx;
  const headers = { 'x-api-key': ctx.key };
  /** A room for 10,000: each one-room round starts empty, as a webinar does. */
  const newBigRoom = async () => {
    const res = await fetch(`${base}/api/v1/rooms`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ createdByExternalId: 'bench', maxParticipants: 10_000 }),
    });
    return ((await res.json()) as { id: string }).id;
  };
  const rooms: string[] = [];
  for (let i = 0; i < 20; i++) rooms.push(await newBigRoom());
  let n = 0;
  const joinRequest = (roomPath: (id: string) => string) => () => ({
    method: 'POST' as const,
    path: roomPath(rooms[n++ % rooms.length]),
    body: JSON.stringify({ externalUserId: `u_${n}_${randomBytes(3).toString('hex')}`, displayName: 'Bench' }),
  });
  const oneRoomJoin = (roomId: string) => () => ({
    method: 'POST' as const,
    path: `/api/v1/rooms/${roomId}/join`,
    body: JSON.stringify({ externalUserId: `u_${n++}_${randomBytes(3).toString('hex')}`, displayName: 'Bench' }),
  });

  const rows: Row[] = [];
  const openLoop: OpenLoopRow[] = [];
  // What the server and the database burn with no request at all (background loops, timers):
  // part of every per-request CPU figure at low rates.
  const idleMeters = { server: serverCpu(serverGroup), database: databaseCpu() };
  await new Promise((r) => setTimeout(r, 5000));
  const perSecond = (ms: number | null) => (ms !== null ? Math.round(ms / 5) : null);
  const idle = { serverMsPerS: perSecond(idleMeters.server()), databaseMsPerS: perSecond(idleMeters.database()) };
  // Warm up the server (JIT, connection pool) before measuring.
  await load(
    'warm-up',
    base,
    16,
    joinRequest((id) => `/api/v1/rooms/${id}/join`),
    headers,
    { group: serverGroup },
  );
  await load(
    'warm-up',
    base,
    16,
    () => ({ method: 'POST', path: '/api/v1/rooms', body: JSON.stringify({ createdByExternalId: 'bench' }) }),
    headers,
    { group: serverGroup },
  );
  await load('warm-up', base, 16, () => ({ method: 'GET', path: '/api/v1/health' }), {}, { group: serverGroup });

  const baselinePort = await freePort();
  const baseline = await startProcess(
    'npx',
    ['tsx', 'bench/baseline.ts'],
    { ...ctx.env, PORT: String(baselinePort) },
    /LISTENING/,
  );
  try {
    const baselineGroup = baseline.pid;
    const baselineBase = `http://127.0.0.1:${baselinePort}`;
    await load(
      'warm-up',
      baselineBase,
      16,
      joinRequest((id) => `/api/v1/rooms/${id}/join`),
      headers,
      { group: baselineGroup },
    );

    // Each concurrency's endpoints run interleaved, in BENCH_ROUNDS rounds of DURATION/ROUNDS
    // seconds each (health, joins, rooms, info, baseline; again; again), so load that other work
    // puts on a shared machine falls on all of them alike and the ratios to GET /health hold.
    for (const c of CONCURRENCY) {
      const plan: { name: string; run: (duration: number) => Promise<Row> }[] = [
        // The floor under every route: the framework's per-request cost plus one SELECT 1.
        {
          name: 'GET /health',
          run: (d) =>
            load(
              'GET /health',
              base,
              c,
              () => ({ method: 'GET', path: '/api/v1/health' }),
              {},
              { group: serverGroup, duration: d },
            ),
        },
        {
          name: 'join, one room',
          // A fresh room each round: one round's joins never reach its cap of 10,000 (a full room
          // answers 403 by a slower path, which is not what this row measures).
          run: async (d) =>
            load('POST /rooms/{id}/join, one room', base, c, oneRoomJoin(await newBigRoom()), headers, {
              group: serverGroup,
              duration: d,
            }),
        },
        {
          name: 'join, 20 rooms',
          run: (d) =>
            load(
              'POST /rooms/{id}/join, 20 rooms',
              base,
              c,
              joinRequest((id) => `/api/v1/rooms/${id}/join`),
              headers,
              { group: serverGroup, duration: d },
            ),
        },
        {
          name: 'POST /rooms',
          run: (d) =>
            load(
              'POST /rooms',
              base,
              c,
              () => ({
                method: 'POST',
                path: '/api/v1/rooms',
                body: JSON.stringify({ createdByExternalId: 'bench' }),
              }),
              headers,
              { group: serverGroup, duration: d },
            ),
        },
        // Limited per client address (10/s): many clients behind the bench's trusted "proxy".
        {
          name: 'info',
          run: (d) =>
            load(
              'GET /rooms/{id}/info',
              base,
              c,
              () => ({
                method: 'GET',
                path: `/api/v1/rooms/${rooms[n % rooms.length]}/info`,
                headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}` },
              }),
              {},
              { group: serverGroup, duration: d },
            ),
        },
        {
          name: 'baseline',
          run: (d) =>
            load(
              'baseline join',
              baselineBase,
              c,
              joinRequest((id) => `/api/v1/rooms/${id}/join`),
              headers,
              { group: baselineGroup, duration: d },
            ),
        },
      ];
      // BENCH_ONLY (a regular expression over the names above) narrows the runs, e.g. for a CPU
      // profile of the join alone; GET /health always runs, as the floor.
      const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
      if (only) plan.splice(0, plan.length, ...plan.filter((p) => p.name === 'GET /health' || only.test(p.name)));
      const rounds = plan.map(() => [] as Row[]);
      const perRound = Math.max(1, Math.round(DURATION / ROUNDS));
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate the order each round, so no endpoint always runs first or last.
        for (let k = 0; k < plan.length; k++) {
          const i = (k + round) % plan.length;
          rounds[i].push(await plan[i].run(perRound));
        }
      }
      rows.push(...rounds.map(merge));
    }
  } finally {
    stopProcess(baseline);
  }
  // Open loop: a fixed offered rate into one room (a fresh one each), latency from each
  // request's due time, by bench/open-loop.ts in a process of its own; GET /health at the
  // same rate just before, as the floor.
  for (const rate of OPEN_LOOP_RATES) {
    openLoop.push(
      await openLoopRun(serverGroup, 'GET /health', {
        base,
        method: 'GET',
        path: '/api/v1/health',
        rate,
        seconds: DURATION,
      }),
    );
    const room = await newBigRoom();
    openLoop.push(
      await openLoopRun(serverGroup, 'POST /rooms/{id}/join, one room', {
        base,
        method: 'POST',
        path: `/api/v1/rooms/${room}/join`,
        headers,
        body: 'join',
        rate,
        seconds: DURATION,
      }),
    );
  }
  return {
    rows,
    openLoop,
    /** The part's tables, with the server's peak memory until now (call it once the run is over). */
    markdown: () => markdown(rows, openLoop, idle, serverGroup),
    chart: barChartSvg(
      'Throughput by endpoint (req/s)',
      'req/s',
      rows.map((r) => ({
        label: `${r.name.replace('POST /rooms/{id}/join', 'join')} @${r.concurrency}`,
        value: r.rps,
        group: r.name === 'baseline join' ? 'bare node:http baseline' : 'Convene (production server)',
      })),
    ),
  };
}

function markdown(
  rows: Row[],
  openLoop: OpenLoopRow[],
  idle: { serverMsPerS: number | null; databaseMsPerS: number | null },
  serverGroup: number | undefined,
) {
  const find = (name: string, c: number) => rows.find((r) => r.name === name && r.concurrency === c);
  // A run that answered anything but 2xx measured something else (a full room, a rate limit):
  // its ratio is shown but flagged, never read as meeting a goal.
  const pct = (a: Row | undefined, b: Row | undefined) => {
    if (!a || !b || b.rps <= 0) return '?';
    const ratio = `${Math.round((a.rps / b.rps) * 100)} %`;
    const failed = a.errors + a.non2xx + b.errors + b.non2xx;
    return failed > 0 ? `${ratio} — not comparable: ${failed} requests failed or were refused` : ratio;
  };
  /** GET /health at this concurrency, measured interleaved with the others. */
  const floorOf = (c: number): Row | undefined => find('GET /health', c);
  const cpuRatio = (r: Row | undefined, floor: Row | undefined) =>
    r?.cpuMsPerReq != null && floor?.cpuMsPerReq ? `${(r.cpuMsPerReq / floor.cpuMsPerReq).toFixed(2)}×` : '?';
  const perRequest = (ms: number | null | undefined, n: number | undefined) =>
    ms != null && n ? (Math.round((ms / n) * 100) / 100).toString() : '?';
  // The server's peak resident memory over the whole run (the young generation's size shows here).
  const peakKb = (() => {
    try {
      return /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${serverGroup}/status`, 'utf8'))?.[1];
    } catch {
      return undefined; // not running any more
    }
  })();
  return [
    ...(rows.length
      ? [
          '| endpoint | concurrency | req/s | % of GET /health | p50 ms | p99 ms | server CPU ms/req | CPU vs GET /health | database CPU ms/req | errors | non-2xx |',
          '|---|---|---|---|---|---|---|---|---|---|---|',
          ...rows.map(
            (r) =>
              `| ${r.name} | ${r.concurrency} | ${r.rps} | ${pct(r, floorOf(r.concurrency))} | ${r.p50} | ${r.p99} | ${r.cpuMsPerReq ?? '?'} | ${cpuRatio(r, floorOf(r.concurrency))} | ${perRequest(r.dbCpuMs, r.total)} | ${r.errors} | ${r.non2xx} |`,
          ),
          '',
          `"database CPU" is every PostgreSQL process on the machine (the baseline's too). Each concurrency's endpoints ran interleaved in ${ROUNDS} rounds of ${Math.max(1, Math.round(DURATION / ROUNDS))} s (order rotated each round); req/s and CPU are over all rounds, p50 the rounds' mean, p99 the worst round's. "% of GET /health" and "CPU vs GET /health" compare with GET /health at the same concurrency.`,
          '',
          `Idle (no requests, 5 s): server ${idle.serverMsPerS ?? '?'} ms CPU per second, database ${idle.databaseMsPerS ?? '?'} ms CPU per second. Server started with \`${SERVER_NODE_FLAGS.join(' ')}\`; its peak resident memory: ${peakKb ? Math.round(Number(peakKb) / 1024) : '?'} MB.`,
          '',
          '**Goals** (ratios from this run):',
          '',
          '| goal | measured |',
          '|---|---|',
          ...CONCURRENCY.map(
            (c) =>
              `| joins into one room at ${c} concurrent ≥ 60 % of GET /health | ${pct(find('POST /rooms/{id}/join, one room', c), floorOf(c))} (CPU per request ${cpuRatio(find('POST /rooms/{id}/join, one room', c), floorOf(c))}) |`,
          ),
          ...CONCURRENCY.map(
            (c) =>
              `| joins over 20 rooms at ${c} concurrent ≥ 60 % of GET /health | ${pct(find('POST /rooms/{id}/join, 20 rooms', c), floorOf(c))} (CPU per request ${cpuRatio(find('POST /rooms/{id}/join, 20 rooms', c), floorOf(c))}) |`,
          ),
          ...CONCURRENCY.map(
            (c) =>
              `| POST /rooms at ${c} concurrent ≥ 60 % of GET /health | ${pct(find('POST /rooms', c), floorOf(c))} (CPU per request ${cpuRatio(find('POST /rooms', c), floorOf(c))}) |`,
          ),
          `| one-room joins at ${CONCURRENCY.at(-1)} vs at ${CONCURRENCY[0]} concurrent (no lower) | ${pct(find('POST /rooms/{id}/join, one room', CONCURRENCY.at(-1)!), find('POST /rooms/{id}/join, one room', CONCURRENCY[0]))} |`,
          ...CONCURRENCY.map(
            (c) =>
              `| bare node:http + pg + JWT baseline join at ${c}: absolute, and Convene's one-room join as a share of it | ${find('baseline join', c)?.rps ?? '?'} req/s; ${pct(find('POST /rooms/{id}/join, one room', c), find('baseline join', c))} |`,
          ),
          '',
        ]
      : []),
    ...(openLoop.length
      ? [
          '## Open loop: joins into one room at a fixed offered rate',
          '',
          'bench/open-loop.ts in its own process: one request every 1000/rate ms whatever the answers do, each latency measured from the moment its request was due (so a server that falls behind shows); one fresh room for 10,000 per rate; GET /health at the same rate just before, as the floor. Goal: join p99 < 50 ms at 100/s. "send lag" is how late the generator itself was (p99).',
          '',
          '| endpoint | offered req/s | served req/s | p50 ms | p90 ms | p99 ms | max ms | server CPU ms/req | send lag p99 ms | errors | non-2xx |',
          '|---|---|---|---|---|---|---|---|---|---|---|',
          ...openLoop.map(
            (r) =>
              `| ${r.name} | ${r.rate} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.cpuMsPerReq ?? '?'} | ${r.sendLagP99} | ${r.errors} | ${r.non2xx} |`,
          ),
          '',
        ]
      : []),
  ].join('\n');
}
