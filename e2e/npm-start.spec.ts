import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/app';
import { enter, expectFramesAdvancing, expectRemoteVideoAdvancing, person, remoteAudioLevel } from './support/call';
import {
  enterInFirefox,
  firefoxPerson,
  firefoxRemoteAudioLevel,
  firefoxRemoteVideoFrames,
  launchFirefox,
} from './support/firefox';

/**
 * The README's first command on the embedded default: scripts/start.ts (what `npm start` runs)
 * with no DATABASE_URL and no LIVEKIT_URL starts its own PostgreSQL and the development media
 * server, migrates, seeds and serves — and two people, one in Chromium and one in Firefox, see and
 * hear each other through the printed join URLs; on
 * SIGTERM the server shuts down before the database does, so nothing written at shutdown is lost
 * and nothing is left running. Uses the e2e build (CONVENE_SKIP_BUILD) and a data directory of its own.
 */
test('npm start on the embedded defaults: serves, a person in Chromium and one in Firefox see and hear each other, seeds once, and shuts down in order on SIGTERM', async ({
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'convene-start-'));
  chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach its data
  const [httpPort, pgPort, mediaPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${httpPort}`;
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL; // the embedded defaults
  for (const name of ['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET']) delete inherited[name];
  let current: ChildProcess | undefined;

  async function start(): Promise<{ exited: Promise<number | null>; output: () => string }> {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...inherited,
        PORT: String(httpPort),
        EMBEDDED_PG_PORT: String(pgPort),
        DEV_MEDIA_PORT: String(mediaPort),
        CONVENE_DATA_DIR: dataDir,
        CONVENE_SKIP_BUILD: '1',
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await expect
      .poll(
        async () =>
          child.exitCode !== null
            ? `exited: ${output}`
            : (await request.get(`${base}/api/v1/health`).catch(() => null))?.status(),
        { timeout: 120_000, intervals: [500] },
      )
      .toBe(200);
    return { exited, output: () => output };
  }
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

  try {
    const first = await start();
    expect(first.output()).toContain('Seeded demo accounts');
    const { liveTenant } = JSON.parse(readFileSync(path.join(dataDir, 'seed-credentials.json'), 'utf8')) as {
      liveTenant: { apiKey: string };
    };
    expect(first.output()).toContain(liveTenant.apiKey); // printed once, on first start
    const headers = { 'x-api-key': liveTenant.apiKey };

    // The README's two-window meeting: a room, two join URLs, two browsers that see each other.
    expect(first.output()).toContain(`development media server on ws://127.0.0.1:${mediaPort}`);
    const room = await (
      await request.post(`${base}/api/v1/rooms`, { headers, data: { name: 'Standup', createdByExternalId: 'me' } })
    ).json();
    const joinUrl = async (who: string) =>
      (
        await (
          await request.post(`${base}/api/v1/rooms/${room.id}/join`, {
            headers,
            data: { externalUserId: who, displayName: who },
          })
        ).json()
      ).joinUrl as string;
    // Ada in Chromium, Bob in Firefox: each sees and hears the other.
    const ada = await person(browser);
    const firefox = await launchFirefox();
    try {
      const bob = await firefoxPerson(firefox);
      const [adaUrl, bobUrl] = [await joinUrl('ada'), await joinUrl('bob')];
      expect(adaUrl).toContain(encodeURIComponent(`ws://127.0.0.1:${mediaPort}`));
      await enter(ada, adaUrl);
      await enterInFirefox(bob.page, bobUrl);
      await expectRemoteVideoAdvancing(ada);
      await expectFramesAdvancing(() => firefoxRemoteVideoFrames(bob.page));
      await expect.poll(() => remoteAudioLevel(ada), { timeout: 20_000 }).toBeGreaterThan(0.001);
      await expect.poll(() => firefoxRemoteAudioLevel(bob.page), { timeout: 20_000 }).toBeGreaterThan(0.001);
      await ada.context().close();
      await bob.close();
    } finally {
      await firefox.close();
    }

    const apiRequests = async () => {
      // A pooled connection the server closed while the browsers talked may be reset as it is
      // reused (keep-alive race): a GET that never reached the server is sent again.
      const get = () => request.get(`${base}/api/v1/tenant/usage`, { headers });
      const usage = await get().catch((err: Error) =>
        String(err).includes('ECONNRESET') ? get() : Promise.reject(err),
      );
      expect(usage.status()).toBe(200);
      return (await usage.json()).monthToDate.apiRequests as number;
    };
    const counted = await apiRequests();
    for (let i = 0; i < 5; i++) expect((await request.get(`${base}/api/v1/tenant`, { headers })).status()).toBe(200);

    current!.kill('SIGTERM');
    await first.exited;
    expect(first.output()).not.toContain('terminating connection'); // the database outlived the server
    expect(await listening(httpPort)).toBe(false);
    expect(await listening(pgPort)).toBe(false);
    expect(await listening(mediaPort)).toBe(false);

    const second = await start();
    expect(second.output()).toContain('Demo accounts exist');
    expect(second.output()).not.toContain(liveTenant.apiKey);
    // The reads before SIGTERM were counted in memory and written at shutdown (and this
    // request counts itself: the usage endpoint flushes before it reads).
    expect(await apiRequests()).toBe(counted + 6); // the five reads and this request
    current!.kill('SIGTERM');
    await second.exited;
  } finally {
    if (current && current.exitCode === null && current.signalCode === null) {
      const child = current;
      child.kill('SIGTERM'); // lets it stop its database too
      await new Promise((r) => {
        child.once('exit', r);
        setTimeout(r, 20_000);
      });
      child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});
