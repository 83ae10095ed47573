/**
 * What every part of `npm run bench` shares: the run's settings from the environment, the database
 * server, starting the app and its helpers as processes of their own, and signing in to the console.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { appServerArgs } from '../scripts/server-flags';

export const root = path.resolve(import.meta.dirname, '..');
/** Seconds per endpoint and concurrency (BENCH_DURATION). */
export const DURATION = Number(process.env.BENCH_DURATION ?? 8);
// The build the bench serves (BENCH_DIST_DIR: one of your own, when others run the bench on this checkout).
export const DIST_DIR = process.env.BENCH_DIST_DIR ?? '.next-bench';

/** What each part gets from the runner: the app under test and its database. */
export interface BenchContext {
  /** The app's base URL (the production server of the bench build). */
  base: string;
  /** The bench tenant's API key. */
  key: string;
  /** The bench tenant's console owner. */
  consoleUser: { email: string; password: string };
  databaseUrl: string;
  /** The app server's process group (its CPU is every process in it). */
  serverGroup: number | undefined;
  /** The environment the app was built and migrated with (the database, the keys). */
  env: Record<string, string>;
  /** The environment the app server runs with (env, plus its proxy and auth settings). */
  serverEnv: Record<string, string>;
}

export async function adminUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
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
export function latestSoak(): string | null {
  const file = path.join(root, 'bench/reports/soak-latest.md');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildProcess> {
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

/** Stops a process started by startProcess, with everything in its process group. */
export function stopProcess(child: ChildProcess) {
  if (child.pid) process.kill(-child.pid, 'SIGTERM');
}

/** The production server (`server/main.ts`) of the bench build on 127.0.0.1:`port`, with these Node flags. */
export function startAppServer(port: number, env: Record<string, string>, nodeFlags: string[] = []) {
  return startProcess(process.execPath, [...nodeFlags, ...appServerArgs(port)], env, /Ready in/);
}

/** next-auth's credentials flow over HTTP (CSRF token + cookie, then the callback): the session cookie. */
export async function consoleSignIn(base: string, user: { email: string; password: string }): Promise<string> {
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
