import { test, expect, type Page } from '@playwright/test';
import { createTenant, type TenantApi } from './support/tenant';
import { enter, expectRemoteVideoAdvancing, person } from './support/call';

/**
 * The call shows the others first (components/call/useFirstSight.ts): a person who joins someone
 * whose camera is on sees that camera in its tile before the call's tools (the docked panels) are
 * made and before its first API reads (the meeting's state) go out; then both come and work. With
 * no one else's video to wait for, they come without it.
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('First sight');
});

type Firsts = { frame?: number; dock?: number; meetingRead?: number; press?: number; audioContexts: number[] };

/**
 * Runs in the page before its scripts: when a remote tile first presents a frame, the dock first
 * appears, the meeting is first read, Join is pressed, and each AudioContext made.
 */
function watchFirsts() {
  const w = window as unknown as { firsts: Firsts; AudioContext: typeof AudioContext };
  const firsts: Firsts = { audioContexts: [] };
  w.firsts = firsts;
  const NativeAudioContext = w.AudioContext;
  w.AudioContext = class extends NativeAudioContext {
    constructor(options?: AudioContextOptions) {
      super(options);
      firsts.audioContexts.push(performance.now());
    }
  };
  document.addEventListener(
    'click',
    (e) => {
      const button = (e.target as Element | null)?.closest?.('button');
      if (button?.textContent?.trim() === 'Join meeting') firsts.press ??= performance.now();
    },
    true,
  );
  const hooked = new WeakSet<HTMLVideoElement>();
  new MutationObserver(() => {
    if (firsts.dock === undefined && document.querySelector('.convene-dock')) firsts.dock = performance.now();
    for (const video of document.querySelectorAll<HTMLVideoElement>(
      '.lk-participant-tile[data-lk-local-participant="false"] video',
    )) {
      if (hooked.has(video)) continue;
      hooked.add(video);
      video.requestVideoFrameCallback(() => (firsts.frame ??= performance.now()));
    }
  }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (new URL(entry.name).pathname === '/api/v1/me/meeting') firsts.meetingRead ??= entry.startTime;
  }).observe({ type: 'resource', buffered: true });
}

const firsts = (page: Page) => page.evaluate(() => (window as unknown as { firsts: Firsts }).firsts);

test('a joiner sees the camera of the one already in before the call’s tools and reads come, then gets them', async ({
  browser,
}) => {
  const roomId = await tenant.room();
  const [amy, bob] = [await person(browser), await person(browser)];
  await enter(amy, await tenant.joinUrl(roomId, 'Amy'));
  await bob.addInitScript(watchFirsts);
  await enter(bob, await tenant.joinUrl(roomId, 'Bob'));
  await expectRemoteVideoAdvancing(bob);
  await expect(bob.locator('.convene-dock')).toBeAttached();
  await expect.poll(async () => (await firsts(bob)).meetingRead).toBeDefined();
  const seen = await firsts(bob);
  expect(seen.frame).toBeDefined();
  expect(seen.dock!).toBeGreaterThanOrEqual(seen.frame!);
  expect(seen.meetingRead!).toBeGreaterThanOrEqual(seen.frame!);
  // Between the press and the first frame one AudioContext is opened: the room's own, which
  // livekit-client makes as it connects. Its silence checks of the microphone made two more
  // (components/call/start-call.ts).
  expect(seen.press).toBeDefined();
  expect(seen.audioContexts.filter((at) => at > seen.press! && at < seen.frame!).length).toBeLessThanOrEqual(1);
  // The tools that came after work: Bob's chat panel opens and sends, Amy reads it in hers.
  await bob.getByRole('button', { name: /^Chat/ }).click();
  const chat = bob.getByRole('region', { name: 'Chat' });
  await chat.getByRole('textbox', { name: 'Message' }).fill('Hello after first sight');
  await chat.getByRole('button', { name: 'Send' }).click();
  await amy.getByRole('button', { name: /^Chat/ }).click();
  await expect(amy.getByRole('region', { name: 'Chat' }).getByText('Hello after first sight')).toBeVisible({
    timeout: 15_000,
  });
  await Promise.all([amy.context().close(), bob.context().close()]);
});

test('alone in the call, the tools and reads come without a remote video to wait for', async ({ browser }) => {
  const roomId = await tenant.room();
  const bob = await person(browser);
  await bob.addInitScript(watchFirsts);
  await enter(bob, await tenant.joinUrl(roomId, 'Bob'));
  await expect(bob.locator('.convene-dock')).toBeAttached();
  await expect.poll(async () => (await firsts(bob)).meetingRead).toBeDefined();
  expect((await firsts(bob)).frame).toBeUndefined();
  await bob.context().close();
});
