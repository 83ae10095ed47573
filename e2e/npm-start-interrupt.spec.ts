import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/app';

/**
 * Ctrl-C on `npm start` in a terminal: the terminal signals SIGINT to every process of the
 * foreground group — scripts/start.ts, the server, and (before issue 45's fix) the embedded
 * PostgreSQL, whose fast shutdown cut the server off mid-shutdown and made the queue log
 * "terminating connection due to administrator command" at level 50. The database now runs in a
 * process group of its own and stops after the server. Here start.ts leads a group of its own
 * (detached), and the whole group gets SIGINT, as a terminal would send it.
 */
const listening = (port: number) =>
  new Promise<boolean>((r) =>
    net
      .connect(port, '127.0.0.1')
      .once('connect', function (this: net.Socket) {
        this.destroy();
        r(true);
      })
      .once('error', () => r(false)),
  );

test('Ctrl-C on npm start: the server shuts down with no error logged, then the database and media server stop', async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'convene-interrupt-'));
  chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach its data
  const [httpPort, pgPort, mediaPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${httpPort}`;
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  for (const name of ['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET', 'STT_BASE_URL']) delete inherited[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...inherited,
      PORT: String(httpPort),
      EMBEDDED_PG_PORT: String(pgPort),
      DEV_MEDIA_PORT: String(mediaPort),
      CONVENE_DATA_DIR: dataDir,
      CONVENE_SKIP_BUILD: '1',
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
      LOG_LEVEL: 'info',
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    await expect
      .poll(async () => (await fetch(`${base}/api/v1/health`).catch(() => null))?.status, {
        timeout: 150_000,
        intervals: [500],
      })
      .toBe(200);
    // Some work for the shutdown to finish: requests whose counters are written at exit, and the
    // queue's workers polling the database.
    const { liveTenant } = JSON.parse(readFileSync(path.join(dataDir, 'seed-credentials.json'), 'utf8')) as {
      liveTenant: { apiKey: string };
    };
    for (let i = 0; i < 5; i++)
      expect((await fetch(`${base}/api/v1/tenant`, { headers: { 'x-api-key': liveTenant.apiKey } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3000));

    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).toBe(130);
    const errors = output
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line) || /terminating connection/.test(line));
    expect(errors).toEqual([]);
    expect(await listening(httpPort)).toBe(false);
    expect(await listening(pgPort)).toBe(false);
    expect(await listening(mediaPort)).toBe(false);
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
