/**
 * `npm run bench`: the production build (next build + next start) on a real PostgreSQL, driven by
 * autocannon from this process; a bare baseline server for the join; the webhook pipeline end to
 * end; first-load JavaScript of the pages. Writes bench/reports/<timestamp>.md (git-ignored).
 *
 * Every API figure is also reported as a share of GET /health measured in the same run (the
 * framework's floor: no auth, one SELECT 1), and with the server's CPU time per request, so a
 * regression shows even on a shared, noisy machine: compare ratios within one report. Joins run
 * into ONE room (a fresh one for 10,000 per run, the all-hands case) and spread over 20 rooms;
 * an open-loop part offers fixed rates (BENCH_OPEN_LOOP_RATES, default 50,100,200 joins/s) from
 * a generator in its own process (bench/open-loop.ts).
 * The latest `npm run soak` table (bench/reports/soak-latest.md) is appended.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { freePort } from '../e2e/support/app';
import { webhookBench } from './webhooks';
import { barChartSvg } from './chart';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags';
import type { OpenLoopResult, OpenLoopSpec } from './open-loop';

const root = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number);
// The build the bench serves (BENCH_DIST_DIR: one of your own, when others run the bench on this checkout).
const DIST_DIR = process.env.BENCH_DIST_DIR ?? '.next-bench';
// Which parts run: api (autocannon + baseline), webhooks (the delivery pipeline), pages (first-load JS),
// media (the development media server with 2, 4 and 6 browsers in one room), hosted-join (joining in
// the hosted call UI, from the press of "Join meeting"), recording (a composite
// recording's CPU per participant).
const PARTS = new Set((process.env.BENCH_PARTS ?? 'api,webhooks,pages,media,hosted-join,recording').split(','));
// Closed-loop runs are split into this many interleaved rounds per concurrency (see below).
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
// Offered rates (joins/s into one room) for the open-loop latency runs.
const OPEN_LOOP_RATES = (process.env.BENCH_OPEN_LOOP_RATES ?? '50,100,200')
  .split(',')
  .map(Number)
  .filter((rate) => rate > 0);

async function adminUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
  const candidate = process.env.CONVENE_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return { url: candidate };
  } catch {
    const { startEmbeddedPostgres } = await import('../lib/runtime/embedded-postgres');
    const e = await startEmbeddedPostgres({ dir: path.join(root, '.data/bench'), port: 54398 });
    return { url: e.adminUrl, stop: e.stop };
  }
}

/** The table of the latest `npm run soak`, if one ran on this checkout. */
function latestSoak(): string | null {
  const file = path.join(root, 'bench/reports/soak-latest.md');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

function startProcess(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  // Own process group, so stopping it also stops what npx started (next-server, tsx).
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${cmd} exited ${code}:\n${out}`)));
  });
}

interface Row {
  name: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpuMsPerReq: number | null;
  total?: number;
  seconds?: number;
  cpuMs?: number | null;
  dbCpuMs?: number | null;
}

const CLOCK_TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** CPU ticks (user + system) used so far by each process `match` selects, by pid, read from /proc. */
function cpuTicks(match: (stat: { pgrp: number; comm: string }) => boolean): Map<number, number> | null {
  if (process.platform !== 'linux') return null;
  const ticks = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After "pid (comm) ": state ppid pgrp ... utime(12th) stime(13th), zero-based 11 and 12.
      if (match({ pgrp: Number(fields[2]), comm })) ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process exited meanwhile
    }
  }
  return ticks;
}

/**
 * A CPU meter (ms, user + system) over the processes `match` selects, as process.cpuUsage() would
 * report it inside each: per request it shows a regression even when the machine is shared and
 * throughput is noisy. Counted per process (a process that ends during a run drops out rather
 * than subtracting its whole life's CPU).
 */
function cpuMeter(match: (stat: { pgrp: number; comm: string }) => boolean) {
  const before = cpuTicks(match);
  return () => {
    const after = cpuTicks(match);
    if (!before || !after) return null;
    let ticks = 0;
    for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    return ticks * CLOCK_TICK_MS;
  };
}

/** The server's CPU: every process in its process group. */
const serverCpu = (pgid: number | undefined) => cpuMeter((p) => p.pgrp === pgid);
/**
 * The database's CPU: every PostgreSQL process on this machine (the pool's backends live for the
 * whole run; on a shared machine another database's work would count too).
 */
const databaseCpu = () => cpuMeter((p) => p.comm === 'postgres');

let serverGroup: number | undefined;

async function load(
  name: string,
  url: string,
  concurrency: number,
  makeRequest: () => { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> },
  headers: Record<string, string>,
  opts: { group?: number; duration?: number } = {},
): Promise<Row> {
  const group = opts.group ?? serverGroup;
  const duration = opts.duration ?? DURATION;
  const serverMeter = serverCpu(group);
  const databaseMeter = databaseCpu();
  const result = await autocannon({
    url,
    connections: concurrency,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [
      {
        setupRequest: (req) => {
          const r = makeRequest();
          return { ...req, ...r, headers: { ...req.headers, ...r.headers } };
        },
      },
    ],
  });
  const cpu = serverMeter();
  const dbCpu = databaseMeter();
  const total = result.requests.total;
  return {
    name,
    concurrency,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMsPerReq: cpu !== null && total > 0 ? Math.round((cpu / total) * 100) / 100 : null,
    total,
    seconds: duration,
    cpuMs: cpu,
    dbCpuMs: dbCpu,
  };
}

/** Rounds of one endpoint merged: throughput and CPU over all of them, mean p50, worst p99. */
function merge(rounds: Row[]): Row {
  const total = rounds.reduce((a, r) => a + (r.total ?? 0), 0);
  const seconds = rounds.reduce((a, r) => a + (r.seconds ?? 0), 0);
  const cpu = rounds.every((r) => r.cpuMs != null) ? rounds.reduce((a, r) => a + r.cpuMs!, 0) : null;
  const dbCpu = rounds.every((r) => r.dbCpuMs != null) ? rounds.reduce((a, r) => a + r.dbCpuMs!, 0) : null;
  return {
    ...rounds[0],
    rps: Math.round(total / seconds),
    p50: Math.round(rounds.reduce((a, r) => a + r.p50, 0) / rounds.length),
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    cpuMsPerReq: cpu !== null && total > 0 ? Math.round((cpu / total) * 100) / 100 : null,
    total,
    seconds,
    cpuMs: cpu,
    dbCpuMs: dbCpu,
  };
}

interface OpenLoopRow extends OpenLoopResult {
  name: string;
  rate: number;
  cpuMsPerReq: number | null;
}

/** One open-loop run in its own process (bench/open-loop.ts), with the server's CPU per request. */
async function openLoopRun(name: string, spec: OpenLoopSpec): Promise<OpenLoopRow> {
  const serverMeter = serverCpu(serverGroup);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/open-loop.ts'), JSON.stringify(spec)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`open-loop run ${name} at ${spec.rate}/s failed (exit ${code})`);
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as OpenLoopResult;
  const cpu = serverMeter();
  return {
    ...result,
    name,
    rate: spec.rate,
    cpuMsPerReq: cpu !== null && result.served > 0 ? Math.round((cpu / result.served) * 100) / 100 : null,
  };
}

async function firstLoadJs(base: string, page: string, cookie?: string) {
  const res = await fetch(`${base}${page}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  if (res.status !== 200) throw new Error(`${page}: HTTP ${res.status}`);
  const html = await res.text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  let raw = 0;
  let gzip = 0;
  for (const src of new Set(scripts)) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body).length;
  }
  return { page, scripts: new Set(scripts).size, kb: Math.round(raw / 1024), gzipKb: Math.round(gzip / 1024) };
}

/** next-auth's credentials flow over HTTP (CSRF token + cookie, then the callback): the session cookie. */
async function consoleSignIn(base: string, user: { email: string; password: string }): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; ') },
    body: new URLSearchParams({ csrfToken, email: user.email, password: user.password, json: 'true' }),
  });
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`console sign-in failed: HTTP ${res.status}`);
  return session;
}

async function main() {
  // Refuse up front rather than start a server with nothing to serve ("fetch failed").
  if (process.env.BENCH_SKIP_BUILD === '1' && !existsSync(path.join(root, DIST_DIR, 'BUILD_ID'))) {
    console.error(
      `BENCH_SKIP_BUILD=1 needs an earlier bench build in ${DIST_DIR}, and there is none: run \`npm run bench\` once without BENCH_SKIP_BUILD (or build it with \`NEXT_DIST_DIR=${DIST_DIR} npx next build\`).`,
    );
    process.exit(2);
  }
  const admin = await adminUrl();
  const dbName = `convene_bench_${randomBytes(4).toString('hex')}`;
  const adminClient = new pg.Client({ connectionString: admin.url });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = Object.assign(new URL(admin.url), { pathname: `/${dbName}` }).toString();
  const children: ChildProcess[] = [];
  const receiver = await startWebhookReceiver();
  try {
    const env: Record<string, string> = {
      DATABASE_URL: dbUrl,
      // DATABASE_POOL_SIZE: the server's default (10 connections), as `npm start` runs it.
      CONVENE_MASTER_KEY: randomBytes(32).toString('hex'),
      NEXT_DIST_DIR: DIST_DIR,
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // A production server refuses missing or published media credentials.
      LIVEKIT_API_KEY: `APIbench${randomBytes(6).toString('hex')}`,
      LIVEKIT_API_SECRET: randomBytes(32).toString('base64url'),
    };
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(migrate.stderr);
    if (process.env.BENCH_SKIP_BUILD !== '1') {
      console.log('▸ next build');
      const build = spawnSync('npx', ['next', 'build'], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: 'inherit',
      });
      if (build.status !== 0) throw new Error('next build failed');
    }
    Object.assign(process.env, env);
    const { seedTenantForBench } = await import('./seed');
    const seed = await seedTenantForBench(receiver.url);

    // A port the kernel had free (a random one from a range could be taken, or one Next refuses).
    const port = await freePort();
    const serverEnv: Record<string, string> = {
      ...env,
      TRUSTED_PROXIES: '127.0.0.1,::1',
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      NEXTAUTH_SECRET: randomBytes(32).toString('hex'),
    };
    // The server runs with the flags `npm start` uses (scripts/server-flags.ts). BENCH_PROFILE=1: a
    // V8 CPU profile of it too, written on exit (open it in Chrome DevTools).
    const profileFlags =
      process.env.BENCH_PROFILE === '1'
        ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/reports/profiles')}`]
        : [];
    children.push(
      await startProcess(
        process.execPath,
        [
          ...SERVER_NODE_FLAGS,
          ...profileFlags,
          'node_modules/next/dist/bin/next',
          'start',
          '-p',
          String(port),
          '-H',
          '127.0.0.1',
        ],
        serverEnv,
        /Ready in/,
      ),
    );
    serverGroup = children[0].pid;
    const base = `http://127.0.0.1:${port}`;
    const headers = { 'x-api-key': seed.key };
    const rooms: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/api/v1/rooms`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ createdByExternalId: 'bench', maxParticipants: 10_000 }),
      });
      rooms.push(((await res.json()) as { id: string }).id);
    }
    let n = 0;
    const joinRequest = (roomPath: (id: string) => string) => () => ({
      method: 'POST' as const,
      path: roomPath(rooms[n++ % rooms.length]),
      body: JSON.stringify({ externalUserId: `u_${n}_${randomBytes(3).toString('hex')}`, displayName: 'Bench' }),
    });
    /** A fresh room for 10,000: each one-room round starts empty, as a webinar does. */
    const newBigRoom = async () => {
      const res = await fetch(`${base}/api/v1/rooms`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ createdByExternalId: 'bench', maxParticipants: 10_000 }),
      });
      return ((await res.json()) as { id: string }).id;
    };
    const oneRoomJoin = (roomId: string) => () => ({
      method: 'POST' as const,
      path: `/api/v1/rooms/${roomId}/join`,
      body: JSON.stringify({ externalUserId: `u_${n++}_${randomBytes(3).toString('hex')}`, displayName: 'Bench' }),
    });

    const rows: Row[] = [];
    const openLoop: OpenLoopRow[] = [];
    let idle: { serverMsPerS: number | null; databaseMsPerS: number | null } | undefined;
    if (PARTS.has('api')) {
      // What the server and the database burn with no request at all (background loops, timers):
      // part of every per-request CPU figure at low rates.
      const idleMeters = { server: serverCpu(serverGroup), database: databaseCpu() };
      await new Promise((r) => setTimeout(r, 5000));
      const perSecond = (ms: number | null) => (ms !== null ? Math.round(ms / 5) : null);
      idle = { serverMsPerS: perSecond(idleMeters.server()), databaseMsPerS: perSecond(idleMeters.database()) };
      // Warm up the server (JIT, connection pool) before measuring.
      await load(
        'warm-up',
        base,
        16,
        joinRequest((id) => `/api/v1/rooms/${id}/join`),
        headers,
      );
      await load(
        'warm-up',
        base,
        16,
        () => ({ method: 'POST', path: '/api/v1/rooms', body: JSON.stringify({ createdByExternalId: 'bench' }) }),
        headers,
      );
      await load('warm-up', base, 16, () => ({ method: 'GET', path: '/api/v1/health' }), {});

      const baselinePort = await freePort();
      children.push(
        await startProcess('npx', ['tsx', 'bench/baseline.ts'], { ...env, PORT: String(baselinePort) }, /LISTENING/),
      );
      const baselineGroup = children[children.length - 1].pid;
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
              load('GET /health', base, c, () => ({ method: 'GET', path: '/api/v1/health' }), {}, { duration: d }),
          },
          {
            name: 'join, one room',
            // A fresh room each round: one round's joins never reach its cap of 10,000 (a full room
            // answers 403 by a slower path, which is not what this row measures).
            run: async (d) =>
              load('POST /rooms/{id}/join, one room', base, c, oneRoomJoin(await newBigRoom()), headers, {
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
                { duration: d },
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
                { duration: d },
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
                { duration: d },
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
      // Open loop: a fixed offered rate into one room (a fresh one each), latency from each
      // request's due time, by bench/open-loop.ts in a process of its own; GET /health at the
      // same rate just before, as the floor.
      for (const rate of OPEN_LOOP_RATES) {
        openLoop.push(
          await openLoopRun('GET /health', { base, method: 'GET', path: '/api/v1/health', rate, seconds: DURATION }),
        );
        const room = await newBigRoom();
        openLoop.push(
          await openLoopRun('POST /rooms/{id}/join, one room', {
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
    }

    // The webhook pipeline (bench/webhooks.ts): join-driven and queued bursts, fairness.
    const webhooks = PARTS.has('webhooks') ? await webhookBench({ base, key: seed.key }) : null;

    let pages: Awaited<ReturnType<typeof firstLoadJs>>[] = [];
    if (PARTS.has('pages')) {
      const consoleCookie = await consoleSignIn(base, seed.console);
      pages = [
        await firstLoadJs(base, `/join?token=x.y.z&url=ws%3A%2F%2F127.0.0.1`),
        await firstLoadJs(base, '/console', consoleCookie),
        await firstLoadJs(base, '/docs'),
      ];
    }

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
    const soak = latestSoak();
    // The server's peak resident memory over the whole run (the young generation's size shows here).
    const peakKb = (() => {
      try {
        return /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${serverGroup}/status`, 'utf8'))?.[1];
      } catch {
        return undefined; // not running any more
      }
    })();
    let report = [
      `# Convene benchmark — ${new Date().toISOString()}`,
      '',
      `Production build (next start), PostgreSQL (${admin.stop ? 'embedded' : 'machine'}), ${DURATION} s per endpoint and concurrency, autocannon from the runner process. Request logging at warn. ` +
        'Compare ratios within one report, not absolute numbers across reports: the machine may be shared.',
      '',
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
            `Idle (no requests, 5 s): server ${idle?.serverMsPerS ?? '?'} ms CPU per second, database ${idle?.databaseMsPerS ?? '?'} ms CPU per second. Server started with \`${SERVER_NODE_FLAGS.join(' ')}\`; its peak resident memory: ${peakKb ? Math.round(Number(peakKb) / 1024) : '?'} MB.`,
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
      ...(webhooks ? [webhooks] : []),
      ...(pages.length
        ? [
            '## First-load JavaScript',
            '',
            '| page | scripts | KB | KB gzip |',
            '|---|---|---|---|',
            ...pages.map((p) => `| ${p.page.split('?')[0]} | ${p.scripts} | ${p.kb} | ${p.gzipKb} |`),
            '',
          ]
        : []),
      ...(soak ? ['## Soak and fault run (latest `npm run soak`)', '', soak, ''] : []),
    ].join('\n');
    mkdirSync(path.join(root, 'bench/reports'), { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(root, 'bench/reports', `${stamp}.md`);
    if (rows.length) {
      const chart = barChartSvg(
        'Throughput by endpoint (req/s)',
        'req/s',
        rows.map((r) => ({
          label: `${r.name.replace('POST /rooms/{id}/join', 'join')} @${r.concurrency}`,
          value: r.rps,
          group: r.name === 'baseline join' ? 'bare node:http baseline' : 'Convene (next start)',
        })),
      );
      writeFileSync(path.join(root, 'bench/reports', `${stamp}.svg`), chart);
      report += `\n![Throughput by endpoint](${stamp}.svg)\n`;
    }
    if (PARTS.has('media')) {
      console.log('▸ development media server: 2, 4 and 6 participants');
      const { mediaBench } = await import('./media');
      report += `\n${(await mediaBench()).markdown}`;
    }
    if (PARTS.has('hosted-join')) {
      console.log('▸ joining in the hosted call UI');
      const { hostedJoinBench } = await import('./hosted-join');
      const result = await hostedJoinBench({
        key: seed.key,
        // A second server on the same build and database, with the development media server as its media layer.
        startApp: async (mediaEnv) => {
          const callPort = await freePort();
          const callBase = `http://127.0.0.1:${callPort}`;
          const child = await startProcess(
            process.execPath,
            ['node_modules/next/dist/bin/next', 'start', '-p', String(callPort), '-H', '127.0.0.1'],
            { ...serverEnv, ...mediaEnv, PUBLIC_BASE_URL: callBase, NEXTAUTH_URL: callBase },
            /Ready in/,
          );
          return {
            base: callBase,
            stop: async () => {
              if (child.pid) process.kill(-child.pid, 'SIGTERM');
            },
          };
        },
      });
      report += `\n${result.markdown}`;
    }
    if (PARTS.has('recording')) {
      console.log('▸ composite recording: 1, 2 and 4 participants');
      const { recordingBench } = await import('./recording');
      report += `\n${(await recordingBench()).markdown}`;
    }
    writeFileSync(file, report);
    console.log(report);
    console.log(`report: ${path.relative(root, file)}`);
    const { disconnectDb } = await import('../lib/db');
    await disconnectDb();
  } finally {
    for (const c of children) if (c.pid) process.kill(-c.pid, 'SIGTERM');
    await receiver.close();
    await new Promise((r) => setTimeout(r, 1500));
    await adminClient.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await adminClient.end();
    await admin.stop?.();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
