import { test, expect, type Page } from '@playwright/test';
import { startLiveApp, type LiveApp } from './support/live-app';

/**
 * The call on a phone (390 × 844): the meeting tools are one row, and an open panel is an opaque
 * sheet that ends above the control bar, so you can still mute and leave with chat or Q&A open.
 * Screenshots of each state are attached to the test's output.
 */
let live: LiveApp;

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  live = await startLiveApp();
});
test.afterAll(async () => {
  await live?.close();
});

async function screenshot(page: Page, name: string) {
  await test.info().attach(`${name}-390.png`, { body: await page.screenshot(), contentType: 'image/png' });
}

const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

test('at 390 px the tools are one row and panels leave mute and leave usable', async ({ browser }) => {
  test.setTimeout(90_000);
  const { joinUrls } = await live.room([{ id: 'host', name: 'Ada', role: 'HOST' }]);
  const context = await browser.newContext({
    permissions: ['camera', 'microphone'],
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(joinUrls[0]);
  await screenshot(page, 'pre-join');
  await page.getByRole('button', { name: 'Join meeting' }).click();
  const tools = page.getByRole('group', { name: 'Meeting tools' });
  await expect(tools.getByRole('button', { name: 'Host controls' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.lk-participant-tile video')).toBeVisible();

  // One row: every toggle sits at the same height, and the row is no taller than one button.
  const tops = await tools
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(5);
  expect(new Set(tops).size).toBe(1);
  const bar = page.getByRole('toolbar', { name: 'Call controls' });
  const barBox = await box(page, '.convene-control-bar');
  expect(barBox.y + barBox.height).toBeLessThanOrEqual(844);
  await screenshot(page, 'call');

  const mic = bar.locator('button[data-lk-source="microphone"]');
  for (const [toggle, shot] of [
    [/^Chat/, 'chat-open'],
    [/^Q&A/, 'questions-open'],
  ] as const) {
    await tools.getByRole('button', { name: toggle }).click();
    const panel = page.locator('section[id^="convene-panel-"]:not([hidden])');
    await expect(panel).toBeVisible();
    const sheet = (await panel.boundingBox())!;
    // A sheet across the phone, ending where the control bar begins.
    expect(sheet.width).toBeGreaterThan(380);
    expect(sheet.y + sheet.height).toBeLessThanOrEqual((await box(page, '.convene-control-bar')).y + 1);
    await screenshot(page, shot);
    // Mute and unmute with the sheet open: the click reaches the button (Playwright checks nothing covers it).
    const before = await mic.getAttribute('data-lk-enabled');
    await mic.click();
    await expect(mic).not.toHaveAttribute('data-lk-enabled', before ?? '');
    await mic.click();
    await expect(mic).toHaveAttribute('data-lk-enabled', before ?? '');
  }

  // Leave with Q&A still open (a host is asked whether to end the meeting for everyone).
  await bar.getByRole('button', { name: 'Leave', exact: true }).click();
  await page.getByRole('dialog', { name: 'Leave the meeting?' }).getByRole('button', { name: 'Leave meeting' }).click();
  await expect(page.getByTestId('error-left')).toBeVisible({ timeout: 15_000 });
  await context.close();
});
