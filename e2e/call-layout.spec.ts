import { test, expect, type Browser, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import { expectRemoteVideoAdvancing, enter } from './support/call';
import { createTenant, type TenantApi } from './support/tenant';
import { keepScreenshot } from './support/words';
import { enterInFirefox, firefoxPerson, launchFirefox } from './support/firefox';

/**
 * The call at a desk (1440 × 900), as Daily Prebuilt shows one (issue 45, items 4–7, 9 and 11), in
 * real calls on the development media server: a top bar with the meeting's name, its clock and
 * the count of people; panels docked beside the stage, which shrinks (no panel covers a tile's
 * name); a hand toast for hosts only, a chat toast for whoever has the chat closed, large floating
 * reactions; links in chat, one's own messages set apart; a host starting and stopping recording
 * and captions from the call; Leave asking a host whether to end for everyone; the ended and left
 * screens naming the meeting and asking for a rating; a shared screen named before its first
 * frame, and never on its sharer's own stage — with no console error or uncaught error in any page
 * throughout. Screenshots of each screen are attached (and kept in test-results/screens).
 */
const DESK = { width: 1440, height: 900 };
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Call layout', { plan: 'growth' });
});
test.describe.configure({ timeout: 300_000 });

async function personAt(browser: Browser, viewport = DESK) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'], viewport });
  return context.newPage();
}

const box = async (l: Locator) => (await l.boundingBox())!;
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });
const seconds = (clock: string) => clock.split(':').reduce((s, part) => s * 60 + Number(part), 0);

/**
 * Every console.error and uncaught error of a page. livekit-client's data channels closing as the
 * media server ends a room are left out: known, and fixed apart (e2e/clean-console.spec.ts).
 */
const dataChannelClosing = /DataChannel error on \w+|publisher data channel '\w+' closed unexpectedly/;
function recordErrors(page: Page, name: string, into: string[]) {
  page.on('console', (m) => {
    if (m.type() === 'error' && !dataChannelClosing.test(m.text())) into.push(`${name}: ${m.text()}`);
  });
  page.on('pageerror', (err) => into.push(`${name}: pageerror: ${err.message}`));
}

test('three people at a desk: top bar, docked panels, toasts, reactions, chat, host tools, leave and end', async ({
  browser,
}, testInfo) => {
  const roomId = await tenant.room({ name: 'Weekly sync', enableRecording: true, enableAiFeatures: true });
  const [host, amy, bob] = [await personAt(browser), await personAt(browser), await personAt(browser)];
  const errors: string[] = [];
  for (const [name, page] of Object.entries({ host, amy, bob })) recordErrors(page, name, errors);
  await enter(host, await tenant.joinUrl(roomId, 'Hana', 'HOST'));
  await enter(amy, await tenant.joinUrl(roomId, 'Amy'));
  await enter(bob, await tenant.joinUrl(roomId, 'Bob'));
  await expectRemoteVideoAdvancing(host, 2);

  // The top bar: the meeting's name, a clock that runs, and how many are in.
  await expect(host.getByTestId('meeting-name')).toHaveText('Weekly sync');
  await expect(host.getByTestId('participant-count')).toHaveText('3');
  const first = seconds(await host.getByTestId('meeting-timer').innerText());
  await host.waitForTimeout(2500);
  expect(seconds(await host.getByTestId('meeting-timer').innerText())).toBeGreaterThanOrEqual(first + 2);
  // Buttons are an icon and a word at this width; the control bar keeps its words (no fold).
  await expect(host.getByRole('toolbar', { name: 'Call controls' })).toHaveAttribute('data-fold', 'none');
  await expect(host.locator('.convene-control-bar .convene-label', { hasText: 'Microphone' })).toBeVisible();
  await keepScreenshot(host, testInfo, 'desk-call-1440');

  // Each panel docks beside the stage: the stage shrinks, no tile's name is under the panel.
  const stage = host.locator('.convene-stage');
  const closedWidth = (await box(stage)).width;
  for (const [toggle, key] of [
    [/^Host controls/, 'host'],
    [/^People/, 'people'],
    [/^Chat/, 'chat'],
    [/^Polls/, 'polls'],
    [/^Q&A/, 'questions'],
  ] as const) {
    const button = host.getByRole('group', { name: 'Meeting tools' }).getByRole('button', { name: toggle });
    await button.click();
    const panel = host.locator(`#convene-panel-${key}`);
    await expect(panel).toBeVisible();
    await expect(panel.getByText('Loading…')).toHaveCount(0, { timeout: 15_000 });
    await expect.poll(async () => (await box(stage)).width).toBeLessThan(closedWidth - 300);
    const dock = await box(panel);
    expect(dock.x).toBeGreaterThanOrEqual((await box(stage)).x + (await box(stage)).width - 1);
    for (const name of await host.locator('.convene-stage .lk-participant-name').all())
      expect(overlaps(await box(name), dock), `a tile's name under the ${key} panel`).toBe(false);
    await keepScreenshot(host, testInfo, `desk-panel-${key}-1440`);
    await panel.getByRole('button', { name: 'Close panel' }).click();
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
  }
  await expect.poll(async () => (await box(stage)).width).toBeGreaterThan(closedWidth - 2);

  // A raised hand: a toast for the host, none for another attendee; a large badge on the tile.
  await amy.getByRole('button', { name: 'Raise hand' }).click();
  await expect(toast(host, 'Amy raised their hand')).toBeVisible({ timeout: 15_000 });
  const badge = host
    .locator('.lk-participant-tile')
    .filter({ has: host.locator('.lk-participant-name', { hasText: 'Amy' }) })
    .first()
    .getByRole('img', { name: 'Hand raised' });
  await expect(badge).toBeVisible();
  expect((await box(badge)).height).toBeGreaterThanOrEqual(28);
  await keepScreenshot(host, testInfo, 'desk-hand-toast-1440');
  await expect(bob.locator('.lk-participant-tile').getByRole('img', { name: 'Hand raised' })).toBeVisible({
    timeout: 15_000,
  });
  expect(await toast(bob, 'raised their hand').count()).toBe(0);
  await amy.getByRole('button', { name: 'Lower hand' }).click();
  await expect(toast(host, 'Amy raised their hand')).toHaveCount(0, { timeout: 15_000 });

  // A reaction floats up large, with the sender's name.
  await amy.getByRole('button', { name: 'Reactions' }).click();
  await amy.getByRole('button', { name: 'React with 🎉' }).click();
  const floating = host.locator('.convene-floating-reaction').filter({ hasText: 'Amy' });
  await expect(floating.locator('.convene-floating-emoji')).toHaveText('🎉', { timeout: 10_000 });
  // It grows in over its first half second, then floats up at full size.
  await expect
    .poll(async () => (await box(floating.locator('.convene-floating-emoji'))).height, { timeout: 3000 })
    .toBeGreaterThanOrEqual(48);
  await keepScreenshot(host, testInfo, 'desk-reaction-1440');

  // Chat: Bob writes with the chat open; Hana, whose chat is closed, gets a toast; Bob gets none.
  await bob.getByRole('group', { name: 'Meeting tools' }).getByRole('button', { name: /^Chat/ }).click();
  const bobChat = bob.getByRole('region', { name: 'Chat' });
  const message = 'Agenda: https://example.com/agenda?week=47, and not this: javascript:alert(1)';
  await bobChat.getByRole('textbox', { name: 'Message' }).fill(message);
  await bobChat.getByRole('button', { name: 'Send' }).click();
  const chatToast = toast(host, 'Message from Bob');
  await expect(chatToast).toBeVisible({ timeout: 15_000 });
  await expect(chatToast).toContainText('Agenda: https://example.com/agenda?week=47');
  await keepScreenshot(host, testInfo, 'desk-chat-toast-1440');
  expect(await toast(bob, 'Message from').count()).toBe(0);
  await chatToast.getByRole('button', { name: 'Open chat' }).click();
  const hostChat = host.getByRole('region', { name: 'Chat' });
  await expect(hostChat).toBeVisible();
  // The address is a link, opened apart from this page; nothing else in the message is.
  const links = hostChat.getByTestId('chat-message').getByRole('link');
  await expect(links).toHaveCount(1);
  await expect(links).toHaveAttribute('href', 'https://example.com/agenda?week=47');
  await expect(links).toHaveAttribute('target', '_blank');
  await expect(links).toHaveAttribute('rel', 'noopener noreferrer');
  // One's own messages stand at the right, others' at the left.
  const own = bobChat.getByTestId('chat-message').last();
  await expect(own).toHaveAttribute('data-mine', 'true');
  const ownBox = await box(own);
  const bobList = await box(bobChat.getByTestId('chat-messages'));
  expect(bobList.x + bobList.width - (ownBox.x + ownBox.width)).toBeLessThan(24);
  const theirs = await box(hostChat.getByTestId('chat-message').last());
  expect(theirs.x - (await box(hostChat.getByTestId('chat-messages'))).x).toBeLessThan(8);
  await keepScreenshot(bob, testInfo, 'desk-chat-own-1440');
  await hostChat.getByRole('button', { name: 'Close panel' }).click();

  // The host records and captions from the call; everyone sees the recording.
  await host.getByRole('button', { name: /^Host controls/ }).click();
  const tools = host.getByTestId('meeting-tools');
  await tools.getByRole('button', { name: 'Start recording' }).click();
  await expect(amy.getByTestId('recording-badge')).toBeVisible({ timeout: 60_000 });
  await expect(tools.getByRole('button', { name: 'Stop recording' })).toHaveAttribute('aria-pressed', 'true', {
    timeout: 15_000,
  });
  await tools.getByRole('button', { name: 'Start captions' }).click();
  await expect
    .poll(async () => (await tenant.api('GET', `/api/v1/captions/status/${roomId}`)).body.active, { timeout: 15_000 })
    .toBe(true);
  await expect(tools.getByRole('button', { name: 'Stop captions' })).toBeVisible({ timeout: 15_000 });
  await keepScreenshot(host, testInfo, 'desk-host-tools-1440');
  await tools.getByRole('button', { name: 'Stop captions' }).click();
  await expect
    .poll(async () => (await tenant.api('GET', `/api/v1/captions/status/${roomId}`)).body.active, { timeout: 15_000 })
    .toBe(false);
  await tools.getByRole('button', { name: 'Stop recording' }).click();
  await expect(amy.getByTestId('recording-badge')).toBeHidden({ timeout: 60_000 });
  await host.locator('#convene-panel-host').getByRole('button', { name: 'Close panel' }).click();

  // An attendee's Leave leaves at once: the left screen names the meeting, offers Rejoin and a rating.
  await amy.getByRole('button', { name: 'Leave', exact: true }).click();
  await expect(amy.getByTestId('error-left')).toBeVisible({ timeout: 15_000 });
  await expect(amy.getByTestId('ended-meeting-name')).toHaveText('Meeting: Weekly sync');
  await expect(amy.getByRole('button', { name: 'Rejoin' })).toBeVisible();
  await amy.getByRole('button', { name: '5 of 5' }).click();
  await expect(amy.getByRole('status').filter({ hasText: 'Thank you' })).toBeVisible();

  // The host's Leave asks: leave, or end for everyone (confirmed once more).
  await host.getByRole('button', { name: 'Leave', exact: true }).click();
  const leave = host.getByRole('dialog', { name: 'Leave the meeting?' });
  await expect(leave.getByRole('button', { name: 'Leave meeting' })).toBeVisible();
  await keepScreenshot(host, testInfo, 'desk-leave-dialog-1440');
  await leave.getByRole('button', { name: 'End meeting for everyone' }).click();
  const confirm = host.getByRole('dialog', { name: 'End the meeting for everyone?' });
  await confirm.getByRole('button', { name: 'End meeting' }).click();
  for (const page of [host, bob]) {
    await expect(page.getByTestId('error-ended')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('ended-meeting-name')).toHaveText('Meeting: Weekly sync');
    await expect(page.getByRole('group', { name: 'How was the meeting?' }).getByRole('button')).toHaveCount(5);
  }
  await expect(bob.getByRole('button', { name: 'Rejoin' })).toHaveCount(0);
  await host.getByRole('button', { name: '4 of 5' }).click();
  await expect(host.getByRole('status').filter({ hasText: 'Thank you' })).toBeVisible();
  await keepScreenshot(host, testInfo, 'desk-ended-1440');
  await host.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(host, testInfo, 'phone-ended-390');

  // No error in any page, through every panel, a hand, a reaction, chat, recording and the end.
  expect(errors).toEqual([]);

  // The ratings are kept, one per person.
  const db = new pg.Client({ connectionString: process.env.CONSOLE_DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ displayName: string; rating: number }>(
      `SELECT p."displayName", r.rating FROM "MeetingRating" r JOIN "Participant" p ON p.id = r."participantId" WHERE r."roomId" = $1 ORDER BY p."displayName"`,
      [roomId],
    );
    expect(rows).toEqual([
      { displayName: 'Amy', rating: 5 },
      { displayName: 'Hana', rating: 4 },
    ]);
  } finally {
    await db.end();
  }
  for (const p of [host, amy, bob]) await p.context().close();
});

/**
 * Instead of the screen picker: a screen that paints no frame at all until the test calls
 * `startScreenFrames()` in the page — so the viewer's tile is seen before its first frame, as on a
 * slow link, however long the publication takes on a busy machine.
 */
async function slowScreen(page: Page) {
  await page.addInitScript(() => {
    navigator.mediaDevices.getDisplayMedia = async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 1280;
      canvas.height = 720;
      // Frames only when asked for (requestFrame): with a frame rate, Chromium may capture the blank
      // canvas once, and the "no frame yet" state this test is about would end on its own.
      const stream = canvas.captureStream(0);
      const [track] = stream.getVideoTracks() as CanvasCaptureMediaStreamTrack[];
      (window as unknown as { startScreenFrames: () => void }).startScreenFrames = () => {
        const ctx = canvas.getContext('2d')!;
        let n = 0;
        setInterval(() => {
          ctx.fillStyle = `hsl(${(n += 7) % 360} 70% 45%)`;
          ctx.fillRect(0, 0, canvas.width, canvas.height);
          ctx.fillStyle = '#fff';
          ctx.font = '64px sans-serif';
          ctx.fillText(`slide ${n}`, 80, 360);
          track.requestFrame();
        }, 66);
      };
      return stream;
    };
  });
}

test('a shared screen is named until its first frame; its sharer sees a notice, not their own screen', async ({
  browser,
}, testInfo) => {
  const roomId = await tenant.room({ name: 'Review' });
  const [host, amy] = [await personAt(browser), await personAt(browser)];
  const errors: string[] = [];
  for (const [name, page] of Object.entries({ host, amy })) recordErrors(page, name, errors);
  await slowScreen(amy);
  await enter(host, await tenant.joinUrl(roomId, 'Hana', 'HOST'));
  await enter(amy, await tenant.joinUrl(roomId, 'Amy'));
  await expectRemoteVideoAdvancing(host);

  await amy.getByRole('button', { name: 'Share screen' }).click();
  // Hana: the screen's tile at once, named, while no frame has come.
  const screenTile = host.locator('.lk-participant-tile[data-lk-source="screen_share"]');
  const placeholder = screenTile.getByTestId('screen-placeholder');
  await expect(placeholder).toBeVisible({ timeout: 30_000 });
  await expect(placeholder).toHaveText('Amy is sharing their screen…');
  await keepScreenshot(host, testInfo, 'desk-screen-placeholder-1440');
  // It stays while no frame comes; the first frame takes it away and the picture plays.
  await host.waitForTimeout(2000);
  await expect(placeholder).toBeVisible();
  await amy.evaluate(() => (window as unknown as { startScreenFrames: () => void }).startScreenFrames());
  await expect(placeholder).toBeHidden({ timeout: 30_000 });
  const frames = () =>
    screenTile.locator('video').evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames);
  const before = await frames();
  await expect.poll(frames, { timeout: 15_000 }).toBeGreaterThan(before + 5);
  await keepScreenshot(host, testInfo, 'desk-screen-shared-1440');

  // Amy: no tile of her own screen anywhere on her stage; a notice with Stop.
  await expect(amy.getByTestId('sharing-notice')).toBeVisible();
  await expect(amy.locator('.lk-participant-tile[data-lk-source="screen_share"]')).toHaveCount(0);
  await keepScreenshot(amy, testInfo, 'desk-sharing-notice-1440');
  await amy.getByTestId('sharing-notice').getByRole('button', { name: 'Stop sharing' }).click();
  await expect(screenTile).toHaveCount(0, { timeout: 15_000 });
  await expect(amy.getByTestId('sharing-notice')).toHaveCount(0);
  expect(errors).toEqual([]);
  for (const p of [host, amy]) await p.context().close();
});

test('in Firefox too: the top bar, and a panel docked beside a stage that shrinks for it', async ({ browser }) => {
  const firefox = await launchFirefox();
  try {
    const roomId = await tenant.room({ name: 'Weekly sync' });
    const host = await personAt(browser);
    await enter(host, await tenant.joinUrl(roomId, 'Hana', 'HOST'));
    const fox = await firefoxPerson(firefox);
    await fox.page.setViewport(DESK);
    await enterInFirefox(fox.page, await tenant.joinUrl(roomId, 'Fox'));
    await fox.page.waitForSelector('[data-testid="participant-count"]');
    await fox.page.waitForFunction(
      () => document.querySelector('[data-testid="participant-count"]')?.textContent === '2',
      { timeout: 30_000 },
    );
    expect(await fox.page.$eval('[data-testid="meeting-name"]', (el) => el.textContent)).toBe('Weekly sync');
    const stageWidth = () => fox.page.$eval('.convene-stage', (el) => el.getBoundingClientRect().width);
    const closed = await stageWidth();
    await fox.page.click('button[aria-controls="convene-panel-people"]');
    await fox.page.waitForSelector('#convene-panel-people', { visible: true });
    await fox.page.waitForFunction(
      (w) => document.querySelector('.convene-stage')!.getBoundingClientRect().width < w - 300,
      {},
      closed,
    );
    const covered = await fox.page.evaluate(() => {
      const dock = document.querySelector('#convene-panel-people')!.getBoundingClientRect();
      const stage = document.querySelector('.convene-stage')!.getBoundingClientRect();
      const names = [...document.querySelectorAll('.convene-stage .lk-participant-name')].map((n) =>
        n.getBoundingClientRect(),
      );
      return {
        beside: dock.left >= stage.right - 1,
        names: names.length,
        under: names.filter(
          (n) => n.left < dock.right && dock.left < n.right && n.top < dock.bottom && dock.top < n.bottom,
        ).length,
      };
    });
    expect(covered).toEqual({ beside: true, names: 2, under: 0 });
    expect(await fox.problems()).toEqual([]);
    await fox.close();
    await host.context().close();
  } finally {
    await firefox.close();
  }
});
