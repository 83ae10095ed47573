import { test, expect, type Page } from '@playwright/test';
import { createTenant, type TenantApi } from './support/tenant';
import { expectRemoteVideoAdvancing, person, remoteAudioLevel, remoteVideoFrames } from './support/call';

/**
 * The development media server forwarding what LiveKit would, in the hosted call UI: people with
 * their camera off are heard (forwarded audio carries the subscriber's own RTP header extension
 * ids, so libwebrtc does not drop it when audio is the subscriber's last section), and a normal
 * call on LiveKit's v1 signaling path (the one the hosted UI takes) logs no error in the browser, and
 * a shared screen is seen and its audio heard. The call renders only once the join has published
 * (components/call/start-call.ts): its first render no longer holds up the join's signaling. The call runs as in e2e/meeting.spec.ts: the
 * production build, the REST API with a tenant's key, Chromium's fake devices (its fake microphone
 * beeps; with the fake UI, getDisplayMedia({audio: true}) picks a fake 1280x720 "screen" and the
 * same beeping fake audio, so no extra flags are needed).
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Media fidelity');
});

async function joinUrls(...names: string[]) {
  const room = await tenant.room();
  return Promise.all(names.map((name) => tenant.joinUrl(room, name)));
}

/** Joins from the pre-join screen, with the camera turned off there first when asked. */
async function enter(page: Page, joinUrl: string, { camera }: { camera: boolean }) {
  await page.goto(joinUrl);
  const cameraToggle = page.locator('.lk-prejoin button[data-lk-source="camera"]');
  await expect(cameraToggle).toHaveAttribute('aria-pressed', 'true');
  if (!camera) {
    await cameraToggle.click();
    await expect(cameraToggle).toHaveAttribute('aria-pressed', 'false');
  }
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-room-container')).toBeVisible();
}

test.describe.configure({ timeout: 90_000 });

test('two people with their cameras off hear each other', async ({ browser }) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  await enter(ada, adaUrl, { camera: false });
  await enter(bob, bobUrl, { camera: false });
  await expect.poll(() => remoteAudioLevel(ada), { timeout: 20_000 }).toBeGreaterThan(0.001);
  await expect.poll(() => remoteAudioLevel(bob), { timeout: 20_000 }).toBeGreaterThan(0.001);
  await ada.context().close();
  await bob.context().close();
});

test('one camera off, one on: both are heard, and the camera is seen', async ({ browser }) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  await enter(ada, adaUrl, { camera: false });
  await enter(bob, bobUrl, { camera: true });
  await expectRemoteVideoAdvancing(ada);
  await expect.poll(() => remoteAudioLevel(ada), { timeout: 20_000 }).toBeGreaterThan(0.001);
  await expect.poll(() => remoteAudioLevel(bob), { timeout: 20_000 }).toBeGreaterThan(0.001);
  await ada.context().close();
  await bob.context().close();
});

test('the call renders once the join has published the camera, not before', async ({ browser }) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  await enter(ada, adaUrl, { camera: true });
  // When the answer to an offer sending the camera was applied, and when the call first appeared.
  await bob.addInitScript(() => {
    const order: { cameraAnswered?: number; callShown?: number } = {};
    (window as unknown as { joinOrder: typeof order }).joinOrder = order;
    const apply = RTCPeerConnection.prototype.setRemoteDescription;
    RTCPeerConnection.prototype.setRemoteDescription = async function (
      this: RTCPeerConnection,
      description: RTCSessionDescriptionInit,
    ) {
      await (apply as (this: RTCPeerConnection, d: RTCSessionDescriptionInit) => Promise<void>).call(this, description);
      if (description.type === 'answer' && this.getSenders().some((s) => s.track?.kind === 'video'))
        order.cameraAnswered ??= performance.now();
    } as typeof apply;
    new MutationObserver((_, observer) => {
      if (!document.querySelector('.lk-room-container')) return;
      observer.disconnect();
      order.callShown = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
  await enter(bob, bobUrl, { camera: true });
  const order = await bob.evaluate(
    () => (window as unknown as { joinOrder: { cameraAnswered?: number; callShown?: number } }).joinOrder,
  );
  expect(order.cameraAnswered).toBeDefined();
  expect(order.callShown).toBeGreaterThan(order.cameraAnswered!);
  await expectRemoteVideoAdvancing(bob);
  await ada.context().close();
  await bob.context().close();
});

test('a normal call on the v1 signaling path logs no error in either browser', async ({ browser }) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  const errors: string[] = [];
  const sockets: string[] = [];
  for (const [who, page] of [
    ['ada', ada],
    ['bob', bob],
  ] as const) {
    page.on('console', (m) => m.type() === 'error' && errors.push(`${who}: ${m.text()}`));
    page.on('pageerror', (err) => errors.push(`${who}: ${err.message}`));
    page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
  }
  await enter(ada, adaUrl, { camera: true });
  await enter(bob, bobUrl, { camera: true });
  await expectRemoteVideoAdvancing(ada);
  await expectRemoteVideoAdvancing(bob);
  await expect.poll(() => remoteAudioLevel(bob), { timeout: 20_000 }).toBeGreaterThan(0.001);
  for (const page of [bob, ada]) {
    await page
      .getByRole('toolbar', { name: 'Call controls' })
      .getByRole('button', { name: 'Leave', exact: true })
      .click();
    await expect(page.getByTestId('error-left')).toBeVisible({ timeout: 15_000 });
  }
  expect(sockets.filter((p) => p.startsWith('/rtc'))).toEqual(['/rtc/v1', '/rtc/v1']);
  expect(errors).toEqual([]);
  await ada.context().close();
  await bob.context().close();
});

/** Frames the browser has decoded for each shared screen it shows. */
function screenFrames(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLVideoElement>('video[data-lk-source="screen_share"]')].map(
      (v) => v.getVideoPlaybackQuality().totalVideoFrames,
    ),
  );
}

test('a screen shared with its audio is seen (frames advancing) and heard by the other person', async ({ browser }) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  // The shared screen takes the focus in both pages: a focused tile once threw and blanked the call.
  const errors: string[] = [];
  for (const page of [ada, bob]) page.on('pageerror', (err) => errors.push(err.message));
  await enter(ada, adaUrl, { camera: false });
  await enter(bob, bobUrl, { camera: false });
  await ada.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Share screen' }).click();
  await expect(
    ada.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Stop sharing' }),
  ).toBeVisible();

  await expect(bob.getByText("ada's screen").first()).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await screenFrames(bob))[0] ?? 0, { timeout: 30_000 }).toBeGreaterThan(10);
  const before = (await screenFrames(bob))[0];
  await expect.poll(async () => (await screenFrames(bob))[0], { timeout: 15_000 }).toBeGreaterThan(before + 5);
  // The screen's own audio track (ScreenShareAudio), not ada's microphone.
  await expect
    .poll(() => remoteAudioLevel(bob, 'audio[data-lk-source="screen_share_audio"]'), { timeout: 20_000 })
    .toBeGreaterThan(0.001);
  expect(errors).toEqual([]);
  await ada.context().close();
  await bob.context().close();
});

test('the pre-join camera and microphone go into the call as they are; the camera turned off is released', async ({
  browser,
}) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  // Every capture the page asks the browser for.
  await ada.addInitScript(() => {
    const w = window as unknown as { captures: MediaStreamTrack[] };
    w.captures = [];
    const native = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await native(constraints);
      w.captures.push(...stream.getTracks());
      return stream;
    };
  });
  const captures = () =>
    ada.evaluate(() => {
      const w = window as unknown as { captures: MediaStreamTrack[] };
      const local = document.querySelector<HTMLVideoElement>(
        '.lk-participant-tile[data-lk-local-participant="true"] video',
      );
      const shown = (local?.srcObject as MediaStream | null)?.getVideoTracks()[0];
      return {
        kinds: w.captures.map((t) => `${t.kind}:${t.readyState}`),
        shownIsPreview: !!shown && shown === w.captures.find((t) => t.kind === 'video'),
      };
    });
  await ada.goto(adaUrl);
  await expect(ada.locator('.lk-prejoin video')).toBeVisible();
  await expect.poll(async () => (await captures()).kinds.sort()).toEqual(['audio:live', 'video:live']);
  await ada.getByRole('button', { name: 'Join meeting' }).click();
  await enter(bob, bobUrl, { camera: false });

  await expectRemoteVideoAdvancing(bob);
  await expect.poll(() => remoteAudioLevel(bob), { timeout: 20_000 }).toBeGreaterThan(0.001);
  // No second capture: what the call publishes and shows is the preview's.
  const inCall = await captures();
  expect(inCall.kinds.sort()).toEqual(['audio:live', 'video:live']);
  expect(inCall.shownIsPreview).toBe(true);

  const camera = ada.locator('.lk-control-bar button[data-lk-source="camera"]');
  await camera.click();
  await expect(camera).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await captures()).kinds.filter((k) => k.startsWith('video'))).toEqual(['video:ended']);
  await camera.click();
  await expect
    .poll(async () => (await captures()).kinds.filter((k) => k.startsWith('video')))
    .toEqual(['video:ended', 'video:live']);
  const before = await remoteVideoFrames(bob);
  await expect
    .poll(async () => Object.entries(await remoteVideoFrames(bob)).some(([id, n]) => n > (before[id] ?? 0) + 5), {
      timeout: 20_000,
    })
    .toBe(true);
  await ada.context().close();
  await bob.context().close();
});

test('a blocked camera is explained before and after the press, and the person is in the call, heard, with it off', async ({
  browser,
}) => {
  const [adaUrl, bobUrl] = await joinUrls('ada', 'bob');
  const [ada, bob] = [await person(browser), await person(browser)];
  // The browser refuses the camera (the site's permission blocked); the microphone works.
  await ada.addInitScript(() => {
    const native = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      if (constraints?.video) throw new DOMException('Permission denied', 'NotAllowedError');
      return native(constraints);
    };
  });
  const blocked = 'Your camera is blocked. Allow it in your browser’s site settings, then turn it on again.';
  await ada.goto(adaUrl);
  await expect(ada.getByTestId('device-failure')).toHaveText(blocked);
  await ada.getByRole('button', { name: 'Join meeting' }).click();
  await enter(bob, bobUrl, { camera: false });

  await expect(ada.locator('.lk-room-container')).toBeVisible();
  await expect(ada.getByText(blocked)).toBeVisible(); // the call tried the camera again, and says why it is off
  await expect(ada.locator('.lk-control-bar button[data-lk-source="camera"]')).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => remoteAudioLevel(bob), { timeout: 20_000 }).toBeGreaterThan(0.001);
  await expect(bob.locator('.lk-participant-tile')).toHaveCount(2);
  await ada.context().close();
  await bob.context().close();
});
