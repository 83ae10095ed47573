/**
 * `npm run bench`: the production build (next build + next start) on a real PostgreSQL, driven by
 * autocannon from this process; a bare baseline server for the join; the webhook pipeline end to
 * end; first-load JavaScript of the pages. Writes bench/reports/<timestamp>.md (git-ignored).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { barChartSvg } from './chart';

const root = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number);
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
// The paced run: events per second offered, for this many seconds.
const WEBHOOK_RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
const WEBHOOK_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
// Which parts run: api (autocannon + baseline), webhooks (the delivery pipeline), pages (first-load JS),
// media (the development media server with 2, 4 and 6 browsers in one room).
const PARTS = new Set((process.env.BENCH_PARTS ?? 'api,webhooks,pages,media').split(','));

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

function startProcess(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  // Own process group, so stopping it also stops what npx started (next-server, tsx).
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

interface Row { name: string; concurrency: number; rps: number; p50: number; p99: number; errors: number; non2xx: number }

async function load(name: string, url: string, concurrency: number, makeRequest: () => { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }, headers: Record<string, string>): Promise<Row> {
  const result = await autocannon({
    url,
    connections: concurrency,
    duration: DURATION,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (req) => { const r = makeRequest(); return { ...req, ...r, headers: { ...req.headers, ...r.headers } }; } }],
  });
  return { name, concurrency, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
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
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`console sign-in failed: HTTP ${res.status}`);
  return session;
}

interface WebhookRun { name: string; events: number; perSecond: number; p50: number; p99: number }

/** Emits `count` events (one every `intervalMs`, or as fast as 16 writers can when 0) and measures their deliveries. */
async function webhookRun(name: string, count: number, intervalMs: number, emit: (i: number) => Promise<{ event: { id: string; occurredAt: Date } }>, receiver: Awaited<ReturnType<typeof startWebhookReceiver>>): Promise<WebhookRun> {
  receiver.received.length = 0;
  const started = Date.now();
  const occurred = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        const wait = started + i * intervalMs - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const { event } = await emit(i);
        occurred.set(event.id, event.occurredAt.getTime());
      }
    }),
  );
  await receiver.waitFor(count, 180_000);
  // Only this run's events count (the tenant's filter keeps the API phases' events out anyway).
  const ours = receiver.received.filter((r) => occurred.has(String(r.headers['x-webhook-id'])));
  if (ours.length !== count) throw new Error(`${name}: expected ${count} deliveries, got ${ours.length}`);
  const latencies = ours.map((r) => r.at - occurred.get(String(r.headers['x-webhook-id']))!).sort((a, b) => a - b);
  const lastAt = Math.max(...ours.map((r) => r.at));
  return {
    name,
    events: count,
    perSecond: Math.round(count / ((lastAt - started) / 1000)),
    p50: latencies[Math.floor(latencies.length * 0.5)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
  };
}

async function main() {
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
      DATABASE_POOL_SIZE: '20',
      CONVENE_MASTER_KEY: randomBytes(32).toString('hex'),
      NEXT_DIST_DIR: '.next-bench',
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // A production server refuses missing or published media credentials.
      LIVEKIT_API_KEY: `APIbench${randomBytes(6).toString('hex')}`,
      LIVEKIT_API_SECRET: randomBytes(32).toString('base64url'),
    };
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    if (migrate.status !== 0) throw new Error(migrate.stderr);
    if (process.env.BENCH_SKIP_BUILD !== '1') {
      console.log('▸ next build');
      const build = spawnSync('npx', ['next', 'build'], { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
      if (build.status !== 0) throw new Error('next build failed');
    }
    Object.assign(process.env, env);
    const { db } = await import('../lib/db');
    const { seedTenantForBench } = await import('./seed');
    const seed = await seedTenantForBench(receiver.url);

    const port = 3300 + Math.floor(Math.random() * 500);
    const serverEnv: Record<string, string> = { ...env, TRUSTED_PROXIES: '127.0.0.1,::1', NEXTAUTH_URL: `http://127.0.0.1:${port}`, NEXTAUTH_SECRET: randomBytes(32).toString('hex') };
    // BENCH_PROFILE=1: a V8 CPU profile of the server, written on exit (open it in Chrome DevTools).
    const nextArgs = ['start', '-p', String(port), '-H', '127.0.0.1'];
    children.push(
      process.env.BENCH_PROFILE === '1'
        ? await startProcess('node', ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/reports/profiles')}`, 'node_modules/next/dist/bin/next', ...nextArgs], serverEnv, /Ready in/)
        : await startProcess('npx', ['next', ...nextArgs], serverEnv, /Ready in/),
    );
    const base = `http://127.0.0.1:${port}`;
    const headers = { 'x-api-key': seed.key };
    const rooms: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/api/v1/rooms`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ createdByExternalId: 'bench', maxParticipants: 10_000 }) });
      rooms.push(((await res.json()) as { id: string }).id);
    }
    let n = 0;
    const joinRequest = (roomPath: (id: string) => string) => () => ({
      method: 'POST' as const,
      path: roomPath(rooms[n++ % rooms.length]),
      body: JSON.stringify({ externalUserId: `u_${n}_${randomBytes(3).toString('hex')}`, displayName: 'Bench' }),
    });

    const rows: Row[] = [];
    if (PARTS.has('api')) {
      // Warm up the server (JIT, connection pool) before measuring.
      await load('warm-up', base, 16, joinRequest((id) => `/api/v1/rooms/${id}/join`), headers);

      const baselinePort = port + 1;
      children.push(await startProcess('npx', ['tsx', 'bench/baseline.ts'], { ...env, PORT: String(baselinePort) }, /LISTENING/));
      const baselineBase = `http://127.0.0.1:${baselinePort}`;
      await load('warm-up', baselineBase, 16, joinRequest((id) => `/api/v1/rooms/${id}/join`), headers);

      for (const c of CONCURRENCY) {
        rows.push(await load('POST /rooms', base, c, () => ({ method: 'POST', path: '/api/v1/rooms', body: JSON.stringify({ createdByExternalId: 'bench' }) }), headers));
        rows.push(await load('POST /rooms/{id}/join', base, c, joinRequest((id) => `/api/v1/rooms/${id}/join`), headers));
        rows.push(await load('baseline join', baselineBase, c, joinRequest((id) => `/api/v1/rooms/${id}/join`), headers));
        // Limited per client address (10/s): many clients behind the bench's trusted "proxy".
        rows.push(await load('GET /rooms/{id}/info', base, c, () => ({ method: 'GET', path: `/api/v1/rooms/${rooms[n % rooms.length]}/info`, headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}` } }), {}));
        // The floor under every route: the framework's per-request cost plus one SELECT 1.
        rows.push(await load('GET /health', base, c, () => ({ method: 'GET', path: '/api/v1/health' }), {}));
      }
    }

    const webhooks: WebhookRun[] = [];
    if (PARTS.has('webhooks')) {
      const { emitEvent } = await import('../lib/events/outbox');
      const emit = (i: number) => db().$transaction((tx) => emitEvent(tx, seed.tenantId, 'webhook.test', { i }, { force: true }));
      // A burst (as fast as 16 concurrent writers can emit: the pipeline's drain rate, latency is
      // mostly queueing) and a paced run at the target rate (latency when the pipeline keeps up).
      webhooks.push(await webhookRun(`burst of ${WEBHOOK_EVENTS}`, WEBHOOK_EVENTS, 0, emit, receiver));
      webhooks.push(await webhookRun(`${WEBHOOK_RATE}/s for ${WEBHOOK_SECONDS} s`, WEBHOOK_RATE * WEBHOOK_SECONDS, 1000 / WEBHOOK_RATE, emit, receiver));
    }

    let pages: Awaited<ReturnType<typeof firstLoadJs>>[] = [];
    if (PARTS.has('pages')) {
      const consoleCookie = await consoleSignIn(base, seed.console);
      pages = [
        await firstLoadJs(base, `/join?token=x.y.z&url=ws%3A%2F%2F127.0.0.1`),
        await firstLoadJs(base, '/console', consoleCookie),
        await firstLoadJs(base, '/docs'),
      ];
    }

    const join64 = rows.find((r) => r.name === 'POST /rooms/{id}/join' && r.concurrency === 64);
    const base64 = rows.find((r) => r.name === 'baseline join' && r.concurrency === 64);
    const ratio = join64 && base64 ? Math.round((join64.rps / base64.rps) * 100) : null;
    const health64 = rows.find((r) => r.name === 'GET /health' && r.concurrency === 64);
    const floor = health64 && base64 ? Math.round((health64.rps / base64.rps) * 100) : null;
    let report = [
      `# Convene benchmark — ${new Date().toISOString()}`,
      '',
      `Production build, PostgreSQL (${admin.stop ? 'embedded' : 'machine'}), ${DURATION} s per run, autocannon in a separate process. Request logging at warn.`,
      '',
      ...(rows.length
        ? [
            '| endpoint | concurrency | req/s | p50 ms | p99 ms | errors | non-2xx |',
            '|---|---|---|---|---|---|---|',
            ...rows.map((r) => `| ${r.name} | ${r.concurrency} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`),
            '',
            `Join throughput at 64 concurrent: **${ratio ?? '?'} %** of the baseline (target ≥ 60 %); join p99 at 64: **${join64?.p99 ?? '?'} ms** (target < 50 ms).`,
            '',
            `For scale: GET /health (no auth, one SELECT 1) serves ${floor ?? '?'} % of the baseline's join throughput at 64, and the baseline's own p99 at 64 is ${base64?.p99 ?? '?'} ms.`,
            '',
          ]
        : []),
      ...(webhooks.length
        ? [
            '## Webhook pipeline',
            '',
            'Events emitted into the outbox by 16 concurrent writers (another process), delivered by the app to a loopback receiver. Targets: ≥ 200 deliveries/s, p50 < 250 ms.',
            '',
            '| run | events | deliveries/s | p50 ms | p99 ms |',
            '|---|---|---|---|---|',
            ...webhooks.map((w) => `| ${w.name} | ${w.events} | ${w.perSecond} | ${w.p50} | ${w.p99} |`),
            '',
          ]
        : []),
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
    ].join('\n');
    mkdirSync(path.join(root, 'bench/reports'), { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(root, 'bench/reports', `${stamp}.md`);
    if (rows.length) {
      const chart = barChartSvg(
        'Throughput by endpoint (req/s)',
        'req/s',
        rows.map((r) => ({ label: `${r.name} @${r.concurrency}`, value: r.rps, group: r.name === 'baseline join' ? 'bare node:http baseline' : 'Convene (next start)' })),
      );
      writeFileSync(path.join(root, 'bench/reports', `${stamp}.svg`), chart);
      report += `\n![Throughput by endpoint](${stamp}.svg)\n`;
    }
    if (PARTS.has('media')) {
      console.log('▸ development media server: 2, 4 and 6 participants');
      const { mediaBench } = await import('./media');
      report += `\n${(await mediaBench()).markdown}`;
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
