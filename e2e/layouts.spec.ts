import { writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expectRemoteVideoAdvancing, person, screenshots } from './support/call';
import { createTenant, type TenantApi } from './support/tenant';

/**
 * Layouts, the moderators' spotlight, full screen / picture-in-picture, keyboard shortcuts and the
 * one-row control bar, in real calls on the development media server: what one browser does, the
 * others see (the spotlight), and what a browser chooses, it keeps (the layout). With
 * DOCS_SCREENSHOTS=1 the pictures also go to docs/images/ (support/call.ts).
 */
const base = process.env.CONSOLE_BASE_URL!;
let tenant: TenantApi;

test.beforeAll(async () => {
  tenant = await createTenant('Layouts');
});

/** A call to the API with a participant's own token. */
async function asParticipant(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A join with what the spotlight needs besides the URL: the token and our participant id. */
async function join(roomId: string, name: string, role = 'ATTENDEE') {
  const res = await tenant.api('POST', `/api/v1/rooms/${roomId}/join`, {
    externalUserId: name.toLowerCase(),
    displayName: name,
    role,
  });
  expect(res.status).toBe(200);
  return res.body as { joinUrl: string; token: string; participant: { id: string } };
}

/** Joins from the pre-join page (generous: three browsers share two busy cores). */
async function enter(page: Page, joinUrl: string) {
  await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.convene-stage')).toBeVisible({ timeout: 30_000 });
}

const stage = (page: Page) => page.locator('.convene-stage');
const bar = (page: Page) => page.getByRole('toolbar', { name: 'Call controls' });
const control = (page: Page, source: 'microphone' | 'camera') =>
  page.locator(`.lk-control-bar .lk-button[data-lk-source="${source}"]`);
/** Someone's camera tile as another browser shows it. */
const tileOf = (page: Page, name: string) =>
  page
    .locator('.lk-participant-tile')
    .filter({ has: page.locator('.lk-participant-name', { hasText: name }) })
    .first();

/** The control bar's visible buttons: where each starts and ends, and its accessible name. */
const barRow = (page: Page) =>
  page.locator('.convene-control-bar button').evaluateAll((buttons) =>
    buttons
      .filter((b) => b.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      .map((b) => {
        const box = b.getBoundingClientRect();
        return {
          top: Math.round(box.top),
          left: box.left,
          right: box.right,
          name: b.getAttribute('aria-label') ?? b.textContent ?? '',
        };
      }),
  );

/**
 * One row inside the window: every visible button shares one top offset and none is cut off —
 * once the bar has settled (after a resize it unfolds for a moment to measure itself again).
 */
async function expectOneRow(page: Page) {
  await expect(async () => {
    const row = await barRow(page);
    const width = page.viewportSize()!.width;
    expect(row.length).toBeGreaterThanOrEqual(5);
    expect(new Set(row.map((b) => b.top)).size, JSON.stringify(row)).toBe(1);
    for (const b of row) {
      expect(b.name.trim(), 'every control has a name').not.toBe('');
      expect(b.left >= 0 && b.right <= width, `${b.name} inside the window`).toBe(true);
    }
  }).toPass({ timeout: 5_000 });
}

/** The layout menu's button, from the More menu where the bar folded it there. */
async function openLayoutMenu(page: Page) {
  const layout = bar(page).getByRole('button', { name: 'Layout', exact: true });
  const more = bar(page).getByRole('button', { name: 'More' });
  // After a resize the bar unfolds for a moment to measure itself again: wait until its fold holds.
  const fold = () => bar(page).getAttribute('data-fold');
  await expect
    .poll(async () => {
      const before = await fold();
      await page.waitForTimeout(300);
      return before === (await fold());
    })
    .toBe(true);
  if (!(await layout.isVisible())) await more.click();
  await layout.click();
}

test.describe.configure({ timeout: 180_000 });

test('a host’s spotlight focuses everyone’s stage until removed; an attendee cannot spotlight', async ({
  browser,
}, testInfo) => {
  const roomId = await tenant.room();
  const [hanaJoin, amyJoin, bobJoin] = [
    await join(roomId, 'Hana', 'HOST'),
    await join(roomId, 'Amy'),
    await join(roomId, 'Bob'),
  ];
  const [host, amy, bob] = [await person(browser), await person(browser), await person(browser)];
  await enter(host, hanaJoin.joinUrl);
  await enter(amy, amyJoin.joinUrl);
  await enter(bob, bobJoin.joinUrl);
  await expectRemoteVideoAdvancing(host, 2);
  await expect(stage(amy)).toHaveAttribute('data-convene-view', 'grid');

  // An attendee: the API refuses with the catalogue code, and attendees get no spotlight buttons.
  const refused = await asParticipant(amyJoin.token, 'POST', '/api/v1/me/spotlight', {
    participantId: bobJoin.participant.id,
  });
  expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
  await expect(amy.getByRole('button', { name: /^Spotlight / })).toHaveCount(0);
  await expect(stage(amy)).toHaveAttribute('data-convene-view', 'grid');

  // The host spotlights Bob from his tile: Amy's and Bob's stages focus him.
  await tileOf(host, 'Bob').hover();
  await tileOf(host, 'Bob').getByRole('button', { name: 'Spotlight Bob for everyone' }).click();
  for (const page of [amy, bob, host]) {
    await expect(stage(page)).toHaveAttribute('data-convene-focus', 'spotlight', { timeout: 15_000 });
    await expect(page.locator('.convene-stage-main .lk-participant-name')).toHaveText('Bob');
    await expect(page.getByRole('status').filter({ hasText: 'Bob is in the spotlight for everyone' })).toBeVisible();
  }
  // Amy's own pin (focus on Hana) does not override the spotlight.
  await tileOf(amy, 'Hana').hover();
  await tileOf(amy, 'Hana').getByRole('button', { name: 'Focus on Hana' }).click();
  await expect(amy.locator('.convene-stage-main .lk-participant-name')).toHaveText('Bob');
  // The large tile plays Bob's video (frames keep coming), not a frozen or empty tile.
  const mainFrames = () =>
    amy.evaluate(
      () =>
        document.querySelector<HTMLVideoElement>('.convene-stage-main video')?.getVideoPlaybackQuality()
          .totalVideoFrames ?? 0,
    );
  const before = await mainFrames();
  await expect.poll(mainFrames, { timeout: 20_000 }).toBeGreaterThan(before + 10);
  await screenshots(amy, testInfo, 'layout-spotlight');

  // Removed: Amy's stage returns to her own choice (her pin on Hana), then to the grid when she unpins.
  await host.getByRole('button', { name: 'Remove the spotlight from Bob' }).click();
  await expect(stage(amy)).toHaveAttribute('data-convene-focus', 'pin', { timeout: 15_000 });
  await expect(amy.locator('.convene-stage-main .lk-participant-name')).toHaveText('Hana');
  await amy.getByRole('button', { name: 'Stop focusing on Hana' }).click();
  await expect(stage(amy)).toHaveAttribute('data-convene-view', 'grid');
  await expect(stage(bob)).toHaveAttribute('data-convene-view', 'grid');
  for (const p of [host, amy, bob]) await p.context().close();
});

test('the layout menu switches grid, speaker and sidebar; the choice survives a reload; tools never cover a tile', async ({
  browser,
}, testInfo) => {
  const roomId = await tenant.room();
  const [host, amy] = [await person(browser), await person(browser)];
  await enter(host, (await join(roomId, 'Hana', 'HOST')).joinUrl);
  const amyUrl = (await join(roomId, 'Amy')).joinUrl;
  await enter(amy, amyUrl);
  await expectRemoteVideoAdvancing(amy);

  for (const width of [1280, 390]) {
    await amy.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    // The tools (badges, panel toggles) end above the first tile: the stage starts below them.
    const gap = async () => {
      const tools = (await amy.locator('.convene-tools').boundingBox())!;
      const tiles = await amy
        .locator('.lk-participant-tile')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
      return { tools: tools.y + tools.height, tiles };
    };
    await expect
      .poll(
        async () => {
          const { tools, tiles } = await gap();
          return tiles.length > 0 && tiles.every((top) => top >= tools);
        },
        { timeout: 15_000, message: `tools over a tile at ${width} px: ${JSON.stringify(await gap())}` },
      )
      .toBe(true);
  }
  await amy.setViewportSize({ width: 1280, height: 800 });
  await expectOneRow(amy);

  await openLayoutMenu(amy);
  const menu = amy.getByRole('group', { name: 'Layout' });
  await expect(menu.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
  await menu.getByRole('button', { name: 'Speaker' }).click();
  await expect(stage(amy)).toHaveAttribute('data-convene-view', 'speaker');
  // Speaker: the other person large, the strip below.
  await expect(amy.locator('.convene-stage-main .lk-participant-name')).toHaveText('Hana');
  const main = (await amy.locator('.convene-stage-main').boundingBox())!;
  const strip = (await amy.locator('.convene-stage-strip').boundingBox())!;
  expect(strip.y).toBeGreaterThanOrEqual(main.y + main.height - 1);
  await screenshots(amy, testInfo, 'layout-speaker');

  await openLayoutMenu(amy);
  await menu.getByRole('button', { name: 'Sidebar' }).click();
  await expect(stage(amy)).toHaveAttribute('data-convene-view', 'sidebar');
  const side = (await amy.locator('.convene-stage-strip').boundingBox())!;
  const large = (await amy.locator('.convene-stage-main').boundingBox())!;
  expect(side.x).toBeGreaterThanOrEqual(large.x + large.width - 1);
  await screenshots(amy, testInfo, 'layout-sidebar');

  // Remembered by this browser: a reload (and a new join) keeps the sidebar.
  await amy.reload();
  await amy.getByRole('button', { name: 'Join meeting' }).click();
  await expect(stage(amy)).toHaveAttribute('data-convene-view', 'sidebar', { timeout: 30_000 });
  expect(await amy.evaluate(() => localStorage.getItem('convene.layout'))).toBe('sidebar');
  for (const p of [host, amy]) await p.context().close();
});

test('on a phone the control bar is one row of named icons; what does not fit is in More', async ({
  browser,
}, testInfo) => {
  const roomId = await tenant.room();
  const context = await browser.newContext({
    permissions: ['camera', 'microphone'],
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const host = await context.newPage();
  await enter(host, (await join(roomId, 'Hana', 'HOST')).joinUrl);
  await expect(host.getByRole('button', { name: 'Host controls' })).toBeVisible({ timeout: 30_000 });
  await expectOneRow(host);
  const barBox = (await host.locator('.convene-control-bar').boundingBox())!;
  expect(barBox.x + barBox.width).toBeLessThanOrEqual(390);

  // At 390 px the hand and reactions fit beside the media controls; More holds the secondary ones, with their words.
  await expect(bar(host).getByRole('button', { name: 'Raise hand' })).toBeVisible();
  await expect(host.getByRole('button', { name: 'Settings', exact: true })).toBeHidden();
  await bar(host).getByRole('button', { name: 'More' }).click();
  for (const name of ['Settings', 'Layout'])
    await expect(host.getByRole('button', { name, exact: true })).toBeVisible();
  await host.getByRole('button', { name: 'Layout', exact: true }).focus();
  await host.keyboard.press('Escape');
  await expect(host.getByRole('button', { name: 'Layout', exact: true })).toBeHidden();

  // A narrower phone (320 px): the hand and reactions fold into More too.
  await host.setViewportSize({ width: 320, height: 640 });
  await expectOneRow(host);
  await expect(host.getByRole('button', { name: 'Raise hand' })).toBeHidden();
  await bar(host).getByRole('button', { name: 'More' }).click();
  for (const name of ['Settings', 'Layout', 'Raise hand', 'Reactions'])
    await expect(host.getByRole('button', { name, exact: true })).toBeVisible();
  const more = await host.screenshot();
  await testInfo.attach('phone-more-320px', { body: more, contentType: 'image/png' });
  if (process.env.DOCS_SCREENSHOTS === '1') writeFileSync('docs/images/phone-more.png', more);
  await host.getByRole('button', { name: 'Raise hand' }).click();
  // A choice closes the menu; opened again, it shows the hand up.
  await expect(host.getByRole('button', { name: 'Raise hand' })).toBeHidden();
  await bar(host).getByRole('button', { name: 'More' }).click();
  await expect(host.getByRole('button', { name: 'Lower hand' })).toHaveAttribute('aria-pressed', 'true', {
    timeout: 15_000,
  });
  await host.getByRole('button', { name: 'Layout' }).focus();
  await host.keyboard.press('Escape');
  await expect(host.getByRole('button', { name: 'Lower hand' })).toBeHidden();
  await expect(bar(host).getByRole('button', { name: 'More' })).toHaveAttribute('aria-expanded', 'false');
  await context.close();
});

test('keyboard shortcuts toggle the microphone and camera the others see, not while typing; ? lists them', async ({
  browser,
}, testInfo) => {
  const roomId = await tenant.room();
  const [host, amy] = [await person(browser), await person(browser)];
  await enter(host, (await join(roomId, 'Hana', 'HOST')).joinUrl);
  await enter(amy, (await join(roomId, 'Amy')).joinUrl);
  await expectRemoteVideoAdvancing(host);
  const amyTile = tileOf(host, 'Amy');
  const amyMicMuted = amyTile.locator('.lk-participant-metadata [data-lk-muted="true"]');
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(amyMicMuted).toHaveCount(0);

  // m and Ctrl+D: the microphone's published track mutes and unmutes (Hana sees it on Amy's tile).
  await amy.locator('body').press('m');
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'false');
  await expect(amyMicMuted).toHaveCount(1, { timeout: 15_000 });
  await amy.locator('body').press('Control+d');
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(amyMicMuted).toHaveCount(0, { timeout: 15_000 });

  // v and Ctrl+E: the camera.
  await amy.locator('body').press('v');
  await expect(control(amy, 'camera')).toHaveAttribute('data-lk-enabled', 'false');
  await expect(amyTile).toHaveAttribute('data-lk-video-muted', 'true', { timeout: 15_000 });
  await amy.locator('body').press('Control+e');
  await expect(control(amy, 'camera')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(amyTile).toHaveAttribute('data-lk-video-muted', 'false', { timeout: 15_000 });

  // h raises the hand; c opens the chat, and typing there toggles nothing.
  await amy.locator('body').press('h');
  await expect(amy.getByRole('button', { name: 'Lower hand' })).toHaveAttribute('aria-pressed', 'true', {
    timeout: 15_000,
  });
  await amy.locator('body').press('c');
  const chat = amy.getByRole('region', { name: 'Chat' });
  await expect(chat).toBeVisible();
  const field = chat.getByRole('textbox').first();
  await field.click();
  await field.pressSequentially('mvhf? hello');
  await expect(field).toHaveValue('mvhf? hello');
  await field.press('Control+d');
  await field.press('Control+e');
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(control(amy, 'camera')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(amy.getByRole('dialog')).toHaveCount(0);
  await expect(amy.getByRole('button', { name: 'Lower hand' })).toBeVisible();

  // ? opens the list (an accessible dialog); Escape closes it.
  await field.press('Escape'); // closes the chat panel, focus back on its toggle
  await amy.locator('body').press('?');
  const help = amy.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Microphone on or off');
  await expect(help).toContainText('Raise or lower your hand');
  const { violations } = await new AxeBuilder({ page: amy })
    .include('dialog[open]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await screenshots(amy, testInfo, 'shortcuts-help');
  // Shortcuts do not fire behind the open dialog.
  await amy.keyboard.press('m');
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'true');
  await amy.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Full screen (f) and picture-in-picture where the browser has it.
  const pip = await amy.evaluate(() => document.pictureInPictureEnabled);
  await expect(bar(amy).getByRole('button', { name: 'Picture in picture' })).toHaveCount(pip ? 1 : 0);
  if (pip) {
    // The other person's video (Hana's: the first other tile) floats; the button then leaves it.
    await bar(amy).getByRole('button', { name: 'Picture in picture' }).click();
    await expect
      .poll(() =>
        amy.evaluate(() => {
          const video = document.pictureInPictureElement;
          return video?.closest('.lk-participant-tile')?.querySelector('.lk-participant-name')?.textContent ?? null;
        }),
      )
      .toBe('Hana');
    await bar(amy).getByRole('button', { name: 'Exit picture in picture' }).click();
    await expect.poll(() => amy.evaluate(() => document.pictureInPictureElement === null)).toBe(true);
  }
  await amy.locator('body').press('f');
  await expect.poll(() => amy.evaluate(() => document.fullscreenElement?.className ?? '')).toContain('convene-call');
  await expect(bar(amy).getByRole('button', { name: 'Exit full screen' })).toBeVisible();
  await amy.locator('body').press('f');
  await expect.poll(() => amy.evaluate(() => document.fullscreenElement === null)).toBe(true);
  for (const p of [host, amy]) await p.context().close();
});
