import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/app';

/**
 * The README's first command on the embedded default: scripts/start.ts (what `npm start` runs)
 * with no DATABASE_URL starts its own PostgreSQL, migrates, seeds and serves; on SIGTERM the
 * server shuts down before the database does, so nothing written at shutdown is lost and
 * nothing is left running. Uses the e2e build (CONVENE_SKIP_BUILD) and a data directory of its own.
 */
test('npm start on the embedded database: serves, seeds once, and shuts down in order on SIGTERM', async ({ request }) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'convene-start-'));
  chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach its data
  const [httpPort, pgPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${httpPort}`;
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL; // the embedded default
  let current: ChildProcess | undefined;

  async function start(): Promise<{ exited: Promise<number | null>; output: () => string }> {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: { ...inherited, PORT: String(httpPort), EMBEDDED_PG_PORT: String(pgPort), CONVENE_DATA_DIR: dataDir, CONVENE_SKIP_BUILD: '1', NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await expect.poll(async () => (child.exitCode !== null ? `exited: ${output}` : (await request.get(`${base}/api/v1/health`).catch(() => null))?.status()), { timeout: 120_000, intervals: [500] }).toBe(200);
    return { exited, output: () => output };
  }
  const listening = (port: number) => new Promise<boolean>((r) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true); }).once('error', () => r(false)));

  try {
    const first = await start();
    expect(first.output()).toContain('Seeded demo accounts');
    const { liveTenant } = JSON.parse(readFileSync(path.join(dataDir, 'seed-credentials.json'), 'utf8')) as { liveTenant: { apiKey: string } };
    expect(first.output()).toContain(liveTenant.apiKey); // printed once, on first start
    const headers = { 'x-api-key': liveTenant.apiKey };
    for (let i = 0; i < 5; i++) expect((await request.get(`${base}/api/v1/tenant`, { headers })).status()).toBe(200);

    current!.kill('SIGTERM');
    await first.exited;
    expect(first.output()).not.toContain('terminating connection'); // the database outlived the server
    expect(await listening(httpPort)).toBe(false);
    expect(await listening(pgPort)).toBe(false);

    const second = await start();
    expect(second.output()).toContain('Demo accounts exist');
    expect(second.output()).not.toContain(liveTenant.apiKey);
    // The five reads before SIGTERM were counted in memory and written at shutdown (and this
    // request counts itself: the usage endpoint flushes before it reads).
    const usage = await request.get(`${base}/api/v1/tenant/usage`, { headers });
    expect(usage.status()).toBe(200);
    expect((await usage.json()).monthToDate.apiRequests).toBe(6);
    current!.kill('SIGTERM');
    await second.exited;
  } finally {
    if (current && current.exitCode === null && current.signalCode === null) {
      const child = current;
      child.kill('SIGTERM'); // lets it stop its database too
      await new Promise((r) => { child.once('exit', r); setTimeout(r, 20_000); });
      child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});
