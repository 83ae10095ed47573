/**
 * The whole app for browser and server specs: a database of its own on the test PostgreSQL
 * (migrated with the stock Prisma CLI, seeded by e2e/support/seed.ts) and the production build
 * served by the production server (`server/main.ts`, run by this node, so signals reach it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { withDatabase } from '../../test/support/postgres';
import { appServerArgs } from '../../scripts/server-flags';

export const E2E_MASTER_KEY = 'e2e-only-master-key-0123456789abcdef';

/** The first port of the kernel's ephemeral range (what listen(0) and outgoing connections take). */
function ephemeralPortsFrom(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

const handedOut = new Set<number>();

/**
 * A TCP port free on 127.0.0.1 now, for a program started next to listen on. Below the ephemeral
 * range: a port from it (what listen(0) gives) can become the source port of any outgoing
 * connection before the program binds it, and an embedded PostgreSQL takes seconds to (EADDRINUSE
 * seen in CI). Never the same port twice in one process.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralPortsFrom();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found between 10000 and ${below}`);
}

export interface SeededDatabase {
  url: string;
  /** What e2e/support/seed.ts printed: the demo provider, tenants, console users and room ids. */
  seed: string;
  drop(): Promise<void>;
}

/** A new database on the server at adminUrl, migrated and seeded; drop() removes it. */
export async function createSeededDatabase(adminUrl: string): Promise<SeededDatabase> {
  const name = `convene_e2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const drop = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  };
  try {
    const env = { ...process.env, DATABASE_URL: url, CONVENE_MASTER_KEY: E2E_MASTER_KEY, LOG_LEVEL: 'warn' };
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], { env, encoding: 'utf8' });
    if (migrate.status !== 0) throw new Error(`migrate deploy failed:\n${migrate.stdout}${migrate.stderr}`);
    const seed = spawnSync('npx', ['tsx', 'e2e/support/seed.ts'], { env, encoding: 'utf8' });
    if (seed.status !== 0) throw new Error(`seed failed:\n${seed.stderr}`);
    return { url, seed: seed.stdout, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}

export interface AppServer {
  baseUrl: string;
  process: ChildProcess;
  /** Resolves with the exit code once the server has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it has not exited within graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The production server (`server/main.ts`) of the e2e build (NEXT_DIST_DIR, default .next-e2e) on
 * 127.0.0.1:port, run by this node so signals reach the server itself. env goes over the e2e master key and a random media key
 * pair (a production server refuses missing or published ones).
 */
export function spawnAppServer(
  port: number,
  env: Record<string, string | undefined>,
  stdio: 'inherit' | 'pipe',
): ChildProcess {
  return spawn(process.execPath, appServerArgs(port), {
    env: {
      ...process.env,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
      CONVENE_MASTER_KEY: E2E_MASTER_KEY,
      LIVEKIT_API_KEY: `APIe2e${randomBytes(6).toString('hex')}`,
      LIVEKIT_API_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', stdio, stdio],
  });
}

/** The production server (`server/main.ts`) on the e2e build against databaseUrl, answering /api/v1/health. */
export async function startAppServer(databaseUrl: string, env: Record<string, string> = {}): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawnAppServer(
    port,
    {
      DATABASE_URL: databaseUrl,
      NEXTAUTH_URL: baseUrl,
      NEXTAUTH_SECRET: 'e2e-only-nextauth-secret-0123456789',
      PUBLIC_BASE_URL: baseUrl,
      LIVEKIT_URL: 'ws://127.0.0.1:1',
      ...env,
    },
    'inherit',
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the production server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).ok) return { baseUrl, process: child, exited, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(0);
      throw new Error(`the production server did not answer ${baseUrl}/api/v1/health`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}
