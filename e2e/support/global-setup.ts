/**
 * The console journeys need the whole app: a real PostgreSQL database (migrated with the stock
 * Prisma CLI, seeded with console users), the production build served by `next start`, and its
 * queue workers delivering webhooks. The hosted-UI specs use Playwright's webServer instead.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { locatePostgres, withDatabase } from '../../test/support/postgres';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url: string, server: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`console server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`console server did not answer ${url}`);
}

export default async function globalSetup() {
  const postgres = await locatePostgres();
  const name = `convene_e2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const databaseUrl = withDatabase(postgres.adminUrl, name);
  const env = { ...process.env, DATABASE_URL: databaseUrl, CONVENE_MASTER_KEY: 'e2e-only-master-key-0123456789abcdef', LOG_LEVEL: 'warn' };

  const dropDatabase = async () => {
    const c = new pg.Client({ connectionString: postgres.adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  };
  let server: ChildProcess | undefined;
  try {
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], { env, encoding: 'utf8' });
    if (migrate.status !== 0) throw new Error(`migrate deploy failed:\n${migrate.stdout}${migrate.stderr}`);
    const seed = spawnSync('npx', ['tsx', 'e2e/support/seed.ts'], { env, encoding: 'utf8' });
    if (seed.status !== 0) throw new Error(`seed failed:\n${seed.stderr}`);

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    server = spawn('npx', ['next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
      env: {
        ...env,
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
        NEXTAUTH_URL: baseUrl,
        NEXTAUTH_SECRET: 'e2e-only-nextauth-secret-0123456789',
        PUBLIC_BASE_URL: baseUrl,
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        WEBHOOK_MAX_ATTEMPTS: '1',
        LIVEKIT_URL: 'ws://127.0.0.1:1',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    await waitFor(`${baseUrl}/api/v1/health`, server);
    process.env.CONSOLE_BASE_URL = baseUrl;
    process.env.CONSOLE_DATABASE_URL = databaseUrl;
    process.env.CONSOLE_SEED = seed.stdout;
  } catch (err) {
    if (server?.pid) process.kill(-server.pid, 'SIGKILL');
    await dropDatabase();
    await postgres.stop();
    throw err;
  }

  return async () => {
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    await dropDatabase();
    await postgres.stop();
  };
}
