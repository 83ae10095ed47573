import { test, expect, type Browser, type Page } from '@playwright/test';
import type { Browser as Firefox } from 'puppeteer-core';
import {
  enter,
  expectFramesAdvancing,
  expectRemoteVideoAdvancing,
  framesByTrack,
  person,
  remoteAudioLevel,
} from './support/call';
import {
  clickInPage,
  eachCallPanelInFirefox,
  enterInFirefox,
  firefoxPerson,
  leaveInFirefox,
  firefoxRemoteAudioLevel,
  firefoxRemoteVideoFrames,
  launchFirefox,
  type FirefoxPage,
  startXvfb,
  watchChromiumProblems,
} from './support/firefox';
import { createTenant, type TenantApi } from './support/tenant';
import { en } from '../lib/i18n/en';

/**
 * The hosted call UI with Firefox as a participant (Debian's Firefox ESR over WebDriver BiDi,
 * e2e/support/firefox.ts), beside Chromium and with another Firefox, on the development media
 * server as in e2e/meeting.spec.ts: each sees the other's camera (frames painted, and more of them
 * a little later) and hears the other's microphone (a WebAudio peak), plain and end-to-end
 * encrypted; a normal call (panels, leaving) logs no page error, console error or CSP violation
 * on either page. A screen shared from Firefox is seen by Chromium, and the other way round: that
 * Firefox has a window on a virtual display of its own (Xvfb), as headless Firefox has no screen
 * to capture (getDisplayMedia answers NotFoundError; its fake devices are a camera and a microphone).
 */
let tenant: TenantApi;
let firefox: Firefox;
test.beforeAll(async () => {
  tenant = await createTenant('Firefox');
  firefox = await launchFirefox();
});
test.afterAll(async () => {
  await firefox?.close();
});

// No retry: each call passes the first time. Two Firefox people once froze within 30 s: each sent its
// camera at 1280×720 and the load starved the media server (rtc/offer.ts and rtc/ice.ts say how).
test.describe.configure({ timeout: 150_000 });

/** A join URL per name in a new room (the E2EE passphrase in the fragment when given). */
async function joinUrls(names: string[], { e2ee }: { e2ee?: string } = {}) {
  const room = await tenant.room(e2ee ? { enableE2EE: true } : {});
  const urls = await Promise.all(names.map((name, i) => tenant.joinUrl(room, name, i === 0 ? 'HOST' : 'ATTENDEE')));
  return urls.map((url) => (e2ee ? `${url}#${encodeURIComponent(e2ee)}` : url));
}

/**
 * Fox (the host, in `firefox`) and Chris (in Chromium) in a new room's call, Fox first; Chris's
 * page errors, console errors and CSP violations recorded from before the pre-join.
 */
async function foxAndChrisInACall(firefox: Firefox, browser: Browser, { e2ee }: { e2ee?: string } = {}) {
  const [foxUrl, chromeUrl] = await joinUrls(['Fox', 'Chris'], { e2ee });
  const fox = await firefoxPerson(firefox);
  const chris = await person(browser);
  const chromeProblems = await watchChromiumProblems(chris);
  await enterInFirefox(fox.page, foxUrl);
  await enter(chris, chromeUrl);
  return { fox, chris, chromeProblems };
}

/** Waits until Firefox paints more and more frames of `tiles` remote cameras. */
const expectFirefoxVideoAdvancing = (page: FirefoxPage, tiles = 1, selector?: string) =>
  expectFramesAdvancing(() => firefoxRemoteVideoFrames(page, selector), tiles);

const heardInFirefox = (page: FirefoxPage) =>
  expect.poll(() => firefoxRemoteAudioLevel(page), { timeout: 20_000 }).toBeGreaterThan(0.001);
const heardInChromium = (page: Page) =>
  expect.poll(() => remoteAudioLevel(page), { timeout: 20_000 }).toBeGreaterThan(0.001);

for (const e2ee of [undefined, 'correct-horse-battery-staple']) {
  const mode = e2ee ? 'end-to-end encrypted' : 'plain';

  test(`Firefox and Chromium see and hear each other (${mode})`, async ({ browser }) => {
    const { fox, chris, chromeProblems } = await foxAndChrisInACall(firefox, browser, { e2ee });
    await expectRemoteVideoAdvancing(chris);
    await expectFirefoxVideoAdvancing(fox.page);
    await heardInChromium(chris);
    await heardInFirefox(fox.page);
    // The rest of a normal call: the host's panels in Firefox, then both leave.
    await eachCallPanelInFirefox(fox.page, en);
    await leaveInFirefox(fox.page, en);
    await chris
      .getByRole('toolbar', { name: 'Call controls' })
      .getByRole('button', { name: 'Leave', exact: true })
      .click();
    await expect(chris.getByTestId('error-left')).toBeVisible({ timeout: 15_000 });
    // No page error, console error or CSP violation on either page, from the pre-join to leaving.
    expect(await fox.problems()).toEqual([]);
    expect(await chromeProblems()).toEqual([]);
    await fox.close();
    await chris.context().close();
  });

  test(`two people in Firefox see and hear each other (${mode})`, async () => {
    const [adaUrl, bobUrl] = await joinUrls(['Ada', 'Bob'], { e2ee });
    const [ada, bob] = [await firefoxPerson(firefox), await firefoxPerson(firefox)];
    await enterInFirefox(ada.page, adaUrl);
    await enterInFirefox(bob.page, bobUrl);
    await expectFirefoxVideoAdvancing(ada.page);
    await expectFirefoxVideoAdvancing(bob.page);
    await heardInFirefox(ada.page);
    await heardInFirefox(bob.page);
    expect(await ada.problems()).toEqual([]);
    expect(await bob.problems()).toEqual([]);
    await ada.close();
    await bob.close();
  });
}

test('a screen shared from Firefox is seen by Chromium (frames advancing, in the shape of the screen), and one shared from Chromium by Firefox', async ({
  browser,
}) => {
  const screen = await startXvfb(); // 1280×720
  let windowed: Firefox | undefined;
  try {
    windowed = await launchFirefox({ display: screen.display });
    const { fox, chris, chromeProblems } = await foxAndChrisInACall(windowed, browser);
    await expectRemoteVideoAdvancing(chris);
    await clickInPage(fox.page, `button[aria-label="${en.controls.shareScreen}"]`);
    await fox.page.waitForSelector(`button[aria-label="${en.controls.stopScreenShare}"]`);

    // What the display shows is Firefox's window with the call in it, Chris's camera playing: the
    // picture changes, so frames keep coming.
    await expect(chris.getByText(en.tiles.screen('Fox')).first()).toBeVisible({ timeout: 20_000 });
    const screenVideo = 'video[data-lk-source="screen_share"]';
    await expectFramesAdvancing(() => chris.evaluate(framesByTrack, screenVideo));
    // The screen's 16:9, not Firefox's fake camera (4:3) sent as the screen.
    const [width, height] = await chris.$eval(screenVideo, (v) => [
      (v as HTMLVideoElement).videoWidth,
      (v as HTMLVideoElement).videoHeight,
    ]);
    expect(width / height).toBeCloseTo(1280 / 720, 1);

    // The other way round: Firefox stops, Chromium shares, Firefox paints it.
    await clickInPage(fox.page, `button[aria-label="${en.controls.stopScreenShare}"]`);
    await expect(chris.locator(screenVideo)).toHaveCount(0, { timeout: 15_000 });
    await chris
      .getByRole('toolbar', { name: 'Call controls' })
      .getByRole('button', { name: en.controls.shareScreen })
      .click();
    await fox.page.waitForFunction(
      (text) => document.body.innerText.includes(text),
      { timeout: 20_000 },
      en.tiles.screen('Chris'),
    );
    await expectFirefoxVideoAdvancing(fox.page, 1, screenVideo);

    expect(await fox.problems()).toEqual([]);
    expect(await chromeProblems()).toEqual([]);
    await fox.close();
    await chris.context().close();
  } finally {
    await windowed?.close();
    screen.stop();
  }
});
