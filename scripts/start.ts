/**
 * `npm start`: the one command that runs Convene.
 * - DATABASE_URL unset → a real embedded PostgreSQL under .data/ (started, kept between runs).
 * - LIVEKIT_URL unset → Convene's development media server (LiveKit-compatible, one machine only)
 *   on 127.0.0.1:7880, with an API key pair generated once per data directory.
 * - Applies migrations with the stock Prisma CLI, seeds a demo provider and tenants on first
 *   start (keys printed once and written to .data/seed-credentials.json), builds and serves.
 * `npm run dev` does the same with `next dev`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_NODE_FLAGS, appServerArgs } from './server-flags';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = process.env.CONVENE_DATA_DIR ? path.resolve(process.env.CONVENE_DATA_DIR) : path.join(root, '.data');
const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '3000';

function persistentSecret(name: string, bytes: number): string {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(bytes).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${result.status}).`);
}

// The embedded database and media server, once started: stopped last, whatever ends this process.
let stopDatabase: (() => Promise<void>) | undefined;
let stopMedia: (() => Promise<void>) | undefined;
const stopDatabaseAndExit = (code: number) =>
  void (stopMedia?.() ?? Promise.resolve()).then(() => stopDatabase?.()).finally(() => process.exit(code));
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * The embedded PostgreSQL in a process group of its own (scripts/embedded-database.ts), so a
 * terminal's Ctrl-C, which reaches every process of the foreground group, does not stop it under
 * the server; it stops when `stop` is called, or when this process is gone.
 */
function startDatabaseProcess(dir: string, port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/embedded-database.ts'), JSON.stringify({ dir, port })],
    { cwd: root, detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('message', (message) =>
      resolve({
        url: (message as { url: string }).url,
        stop: () => {
          if (child.connected) child.send('stop');
          return exited;
        },
      }),
    );
    void exited.then(() => reject(new Error('the embedded PostgreSQL did not start')));
  });
}

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: port };
  env.CONVENE_MASTER_KEY ??= persistentSecret('master.key', 32);
  env.NEXTAUTH_SECRET ??= persistentSecret('nextauth.secret', 32);
  env.PUBLIC_BASE_URL ??= `http://localhost:${port}`;
  env.NEXTAUTH_URL ??= env.PUBLIC_BASE_URL;

  if (!env.DATABASE_URL) {
    const pgPort = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
    console.log(
      `▸ Starting embedded PostgreSQL on 127.0.0.1:${pgPort} (data in ${path.relative(root, path.join(dataDir, 'pg'))})`,
    );
    // Stopped below once the server has exited, so its graceful shutdown still has a database.
    const embedded = await startDatabaseProcess(dataDir, pgPort);
    env.DATABASE_URL = embedded.url;
    stopDatabase = embedded.stop;
  }
  if (!env.LIVEKIT_URL) {
    const { startDevMediaServer } = await import('../media-server');
    const mediaPort = Number(process.env.DEV_MEDIA_PORT ?? 7880);
    const media = await startDevMediaServer({
      port: mediaPort,
      apiKey: `dev_${persistentSecret('media-api.key', 6)}`,
      apiSecret: persistentSecret('media-api.secret', 32),
      webhookUrls: [`http://127.0.0.1:${port}/api/media/webhook`],
      log: (msg) => console.log(`  [media] ${msg}`),
    });
    console.log(
      `▸ Starting the development media server on ${media.url} (LiveKit-compatible, for this machine only: set LIVEKIT_URL for LiveKit Cloud or a LiveKit cluster)`,
    );
    Object.assign(env, media.env());
    stopMedia = media.close;
  }
  // Until the server runs, a signal just stops the database (spawnSync defers it to the step's end).
  const beforeServer = (signal: keyof typeof SIGNAL_EXIT_CODES) => stopDatabaseAndExit(SIGNAL_EXIT_CODES[signal]);
  process.once('SIGINT', beforeServer);
  process.once('SIGTERM', beforeServer);

  console.log('▸ Applying migrations');
  run('npx', ['prisma', 'migrate', 'deploy'], env);

  Object.assign(process.env, env);
  const { seedIfEmpty } = await import('../lib/runtime/seed');
  const seed = await seedIfEmpty();
  const credentialsFile = path.join(dataDir, 'seed-credentials.json');
  if (seed.created) {
    writeFileSync(credentialsFile, JSON.stringify(seed, null, 2), { mode: 0o600 });
    console.log(
      `\n▸ Seeded demo accounts. These keys are shown once (also saved to ${path.relative(root, credentialsFile)}):`,
    );
    console.log(`  provider key (x-provider-key):        ${seed.providerKey}`);
    console.log(`  live tenant ${seed.liveTenant!.id} (x-api-key):    ${seed.liveTenant!.apiKey}`);
    console.log(`  sandbox tenant ${seed.sandboxTenant!.id} (x-api-key): ${seed.sandboxTenant!.apiKey}`);
    console.log(`  console (${env.PUBLIC_BASE_URL}/console) sign-ins:`);
    for (const u of seed.consoleUsers ?? [])
      console.log(`    ${u.email.padEnd(28)} ${u.password}   ${u.role.toLowerCase()} of ${u.of}`);
    console.log('');
  } else {
    console.log(
      `▸ Demo accounts exist; their keys were printed on first start and saved in ${path.relative(root, credentialsFile)}`,
    );
  }
  const { disconnectDb } = await import('../lib/db');
  await disconnectDb();

  if (!dev && process.env.CONVENE_SKIP_BUILD !== '1') {
    console.log('▸ Building');
    run('npm', ['run', 'build'], env);
  }
  console.log(`▸ Serving on ${env.PUBLIC_BASE_URL}`);
  // The server under this node, not through npx: a signal sent to this process reaches the
  // server (npx would exit without passing it on, leaving the server running with no database).
  const server = spawn(
    process.execPath,
    dev
      ? [path.join(root, 'node_modules/next/dist/bin/next'), 'dev', '-p', port]
      : [...SERVER_NODE_FLAGS, ...appServerArgs(Number(port), '0.0.0.0')],
    { cwd: root, env, stdio: 'inherit' },
  );
  // Live captions need a speech-to-text provider: the captions worker runs beside the server, in its
  // own process (as in production), and stops with it.
  const captions = env.STT_BASE_URL
    ? spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'agents/captions/main.ts'], {
        cwd: root,
        env,
        stdio: 'inherit',
      })
    : undefined;
  process.off('SIGINT', beforeServer);
  process.off('SIGTERM', beforeServer);
  const stop = (signal: NodeJS.Signals) => {
    captions?.kill(signal);
    server.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  server.on('exit', (code) => {
    captions?.kill('SIGTERM');
    stopDatabaseAndExit(code ?? 0);
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  stopDatabaseAndExit(1);
});
