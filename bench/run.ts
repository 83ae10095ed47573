/**
 * `npm run bench`: the production build (npm run build, served as `npm start` serves it) on a real PostgreSQL, measured
 * by the parts BENCH_PARTS names, one file each; bench/report.ts writes the report
 * (bench/reports/<timestamp>.md, git-ignored), with the latest `npm run soak` table appended.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../e2e/support/app';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { adminUrl, type BenchContext, consoleSignIn, DIST_DIR, root, startAppServer, stopProcess } from './harness';
import { type Section, writeReport } from './report';

/**
 * The parts, in the order they run: api (autocannon + baseline, bench/api.ts), webhooks (the
 * delivery pipeline), telemetry (call-quality reports from 1,000 participants every 10 s), pages
 * (first-load JS), media (the development media server with 2, 4 and 6 browsers in one room),
 * hosted-join (joining in the hosted call UI, from the press of "Join meeting"), recording (a
 * composite recording's CPU per participant), data-growth (one tenant's history at two sizes 100×
 * apart; not in the default set: it builds a database of several GB). Each in bench/<part>.ts.
 */
const PART_RUNNERS: Record<string, (ctx: BenchContext) => Promise<Section>> = {
  api: async (ctx) => {
    const { apiBench } = await import('./api');
    const api = await apiBench(ctx);
    return {
      markdown: api.markdown,
      ...(api.rows.length ? { chart: { title: 'Throughput by endpoint', svg: api.chart } } : {}),
    };
  },
  webhooks: async ({ base, key }) => {
    const { webhookBench } = await import('./webhooks');
    return { markdown: await webhookBench({ base, key }) };
  },
  telemetry: async (ctx) => {
    const { telemetryBench } = await import('./telemetry');
    return { markdown: (await telemetryBench(ctx)).markdown };
  },
  pages: async (ctx) => {
    const { pagesBench } = await import('./pages');
    return { markdown: (await pagesBench(ctx)).markdown };
  },
  media: async () => {
    console.log('▸ development media server: 2, 4 and 6 participants');
    const { mediaBench } = await import('./media');
    return { markdown: (await mediaBench()).markdown };
  },
  'hosted-join': async (ctx) => {
    console.log('▸ joining in the hosted call UI');
    const { hostedJoinBench } = await import('./hosted-join');
    return { markdown: (await hostedJoinBench(ctx)).markdown };
  },
  recording: async () => {
    console.log('▸ composite recording: 1, 2 and 4 participants');
    const { recordingBench } = await import('./recording');
    return { markdown: (await recordingBench()).markdown };
  },
  'data-growth': async (ctx) => {
    const { dataGrowthBench } = await import('./data-growth');
    const growth = await dataGrowthBench({
      base: ctx.base,
      databaseUrl: ctx.databaseUrl,
      signIn: (user) => consoleSignIn(ctx.base, user),
    });
    return { markdown: growth.markdown };
  },
};
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? 'api,webhooks,telemetry,pages,media,hosted-join,recording').split(','),
);

async function main() {
  const unknown = [...PARTS].filter((part) => !PART_RUNNERS[part]);
  if (unknown.length) {
    console.error(`BENCH_PARTS: no part ${unknown.join(', ')} (the parts: ${Object.keys(PART_RUNNERS).join(', ')}).`);
    process.exit(2);
  }
  // Refuse up front rather than start a server with nothing to serve ("fetch failed").
  if (process.env.BENCH_SKIP_BUILD === '1' && !existsSync(path.join(root, DIST_DIR, 'BUILD_ID'))) {
    console.error(
      `BENCH_SKIP_BUILD=1 needs an earlier bench build in ${DIST_DIR}, and there is none: run \`npm run bench\` once without BENCH_SKIP_BUILD (or build it with \`NEXT_DIST_DIR=${DIST_DIR} npm run build\`).`,
    );
    process.exit(2);
  }
  const admin = await adminUrl();
  const dbName = `convene_bench_${randomBytes(4).toString('hex')}`;
  const adminClient = new pg.Client({ connectionString: admin.url });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = Object.assign(new URL(admin.url), { pathname: `/${dbName}` }).toString();
  let server: ChildProcess | undefined;
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
      console.log('▸ npm run build');
      const build = spawnSync('npm', ['run', 'build'], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: 'inherit',
      });
      if (build.status !== 0) throw new Error('npm run build failed');
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
    server = await startAppServer(port, serverEnv, [...SERVER_NODE_FLAGS, ...profileFlags]);
    const ctx: BenchContext = {
      base: `http://127.0.0.1:${port}`,
      key: seed.key,
      consoleUser: seed.console,
      databaseUrl: dbUrl,
      serverGroup: server.pid,
      env,
      serverEnv,
    };
    const sections: Section[] = [];
    for (const [part, run] of Object.entries(PART_RUNNERS)) if (PARTS.has(part)) sections.push(await run(ctx));
    writeReport(sections, { embeddedDatabase: !!admin.stop });
    const { disconnectDb } = await import('../lib/db');
    await disconnectDb();
  } finally {
    if (server) stopProcess(server);
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
