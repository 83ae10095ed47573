/** A person in a real call, as the call specs measure it: frames decoded, audio heard. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import type { Messages } from '../../lib/i18n/messages';
import type { TenantApi } from './tenant';

/** A person in their own browser context (own fake devices, own storage). */
export async function person(browser: Browser) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  return context.newPage();
}

export async function enter(page: Page, joinUrl: string) {
  await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  // A join on a loaded machine can take tens of seconds; the call's own speed is the join specs' concern.
  await expect(page.locator('.lk-room-container')).toBeVisible({ timeout: 60_000 });
}

/**
 * An init script (`page.addInitScript`): every RTCPeerConnection the page makes is kept in
 * `window.__pcs`, so a test can reach its senders and read its statistics.
 */
export const capturePeerConnections = () => {
  const pcs: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = pcs;
  const Original = window.RTCPeerConnection;
  window.RTCPeerConnection = new Proxy(Original, {
    construct(target, args) {
      const pc = new target(...(args as [RTCConfiguration?]));
      pcs.push(pc);
      return pc;
    },
  });
};

/** Every remote participant's camera tile (tiles reorder as people speak: a tile is told by its track id). */
export const REMOTE_CAMERA_VIDEOS = '.lk-participant-tile[data-lk-local-participant="false"] video';

/**
 * Frames shown so far of each video `selector` picks, by its track id: run in the page, either
 * engine. Chromium counts decoded frames (getVideoPlaybackQuality); Firefox keeps that at 0 for a
 * MediaStream and counts painted ones (mozPaintedFrames, of the tab in front).
 */
export function framesByTrack(selector: string) {
  return Object.fromEntries(
    [...document.querySelectorAll<HTMLVideoElement>(selector)].map((v) => {
      const painted = (v as HTMLVideoElement & { mozPaintedFrames?: number }).mozPaintedFrames;
      const frames = painted ?? v.getVideoPlaybackQuality().totalVideoFrames;
      return [(v.srcObject as MediaStream | null)?.getVideoTracks()[0]?.id ?? '', frames];
    }),
  ) as Record<string, number>;
}

/** Frames the browser has shown for each remote participant's camera tile, by the tile's track id. */
export function remoteVideoFrames(page: Page) {
  return page.evaluate(framesByTrack, REMOTE_CAMERA_VIDEOS);
}

/**
 * Waits until `tiles` videos counted by `read` (framesByTrack's figures) show frames, and more of
 * them a little later: advancing, not one frozen frame.
 */
export async function expectFramesAdvancing(read: () => Promise<Record<string, number>>, tiles = 1) {
  await expect
    .poll(async () => Object.values(await read()).filter((n) => n > 10).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(tiles);
  const before = await read();
  await expect
    .poll(async () => Object.entries(await read()).filter(([id, n]) => id && n > (before[id] ?? 0) + 5).length, {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(tiles);
}

/** Waits until every remote camera tile shows video whose frame count keeps advancing. */
export function expectRemoteVideoAdvancing(page: Page, tiles = 1) {
  return expectFramesAdvancing(() => remoteVideoFrames(page), tiles);
}

/**
 * The loudest level on the page's audio elements that `selector` picks, over about two seconds
 * (0 = silence): run in the page, either engine. The context's resume and close are bounded: in
 * headless Firefox they may never settle.
 */
export async function audioPeak(selector: string) {
  const streams = [...document.querySelectorAll<HTMLAudioElement>(selector)]
    .map((a) => a.srcObject)
    .filter((s): s is MediaStream => s instanceof MediaStream && s.getAudioTracks().length > 0);
  if (!streams.length) return 0;
  const ctx = new AudioContext();
  await Promise.race([ctx.resume(), new Promise((r) => setTimeout(r, 1000))]);
  const analysers = streams.map((s) => {
    const analyser = ctx.createAnalyser();
    ctx.createMediaStreamSource(s).connect(analyser);
    return analyser;
  });
  let peak = 0;
  const samples = new Float32Array(2048);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 100));
    for (const a of analysers) {
      a.getFloatTimeDomainData(samples);
      for (const v of samples) peak = Math.max(peak, Math.abs(v));
    }
  }
  await Promise.race([ctx.close(), new Promise((r) => setTimeout(r, 1000))]);
  return peak;
}

/** The loudest level heard on the remote audio elements (those `selector` picks) over about two seconds (0 = silence). */
export function remoteAudioLevel(page: Page, selector = 'audio') {
  return page.evaluate(audioPeak, selector);
}

/**
 * The page as it looks at a desktop (1280 px) and a phone (390 px) width, attached to the test's
 * output. With `DOCS_SCREENSHOTS=1` the pictures are also written to docs/images/ (`name`.png and
 * `name`-phone.png) for docs/hosted-ui.md; otherwise a test run leaves the docs alone.
 */
export async function screenshots(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = false }: { fullPage?: boolean } = {},
) {
  const size = page.viewportSize()!;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.waitForTimeout(300); // layouts follow the new size
    const body = await page.screenshot({ fullPage });
    await testInfo.attach(`${name}-${width}px`, { body, contentType: 'image/png' });
    if (process.env.DOCS_SCREENSHOTS === '1') {
      mkdirSync('docs/images', { recursive: true });
      writeFileSync(`docs/images/${name}${width === 390 ? '-phone' : ''}.png`, body);
    }
  }
  await page.setViewportSize(size);
}

/**
 * A host (Hana) and two attendees (Amy, Bob) in a new room of `tenant`, each in a browser of their
 * own, once the host sees both cameras.
 */
export async function hostWithTwo(browser: Browser, tenant: TenantApi) {
  const roomId = await tenant.room();
  const [host, amy, bob] = [await person(browser), await person(browser), await person(browser)];
  await enter(host, await tenant.joinUrl(roomId, 'Hana', 'HOST'));
  await enter(amy, await tenant.joinUrl(roomId, 'Amy'));
  await enter(bob, await tenant.joinUrl(roomId, 'Bob'));
  await expectRemoteVideoAdvancing(host, 2);
  return { roomId, host, amy, bob };
}

/**
 * Opens each of the call's panels in turn as a host sees them (host controls, people with one in,
 * polls, Q&A, chat), waits until it has loaded (its own texts, not the loading line), runs `check`
 * with the toggle's name, and closes it again.
 */
export async function eachCallPanel(page: Page, t: Messages, check: (toggle: string) => Promise<void>) {
  for (const toggle of [
    t.panels.hostToggle(0),
    t.panels.peopleToggle(1),
    t.panels.pollsToggle(0),
    t.panels.questionsToggle(0),
    t.chat.toggle(0),
  ]) {
    await page.getByRole('button', { name: toggle, exact: true }).click();
    const panel = page.locator('section[id^="convene-panel-"]:not([hidden])');
    await expect(panel).toBeVisible();
    await expect(panel.getByText(t.panels.loading)).toHaveCount(0, { timeout: 15_000 });
    await check(toggle);
    await panel.getByRole('button', { name: t.panels.close }).click();
  }
}
