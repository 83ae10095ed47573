import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { AccessToken } from 'livekit-server-sdk';
import { messagesFor } from '../lib/i18n/messages';
import { LANGUAGES } from '../lib/i18n/languages';
import { startLiveApp, type LiveApp } from './support/live-app';
import { eachCallPanel } from './support/call';

/**
 * Automated WCAG 2.1 A/AA checks (axe-core) on the pages people use: the call UI in its four
 * languages (pre-join, a real call with each panel open, the waiting page, the error screens) and
 * the console's sign-in and main pages for a tenant admin and a reseller. Axe cannot judge
 * everything (focus order, wording); it does catch missing names, labels, contrast.
 */
const base = process.env.CONSOLE_BASE_URL!;
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { consoleUsers: { email: string; password: string }[] };

async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
  expect(summary, `${what} has accessibility violations`).toEqual([]);
}

async function signIn(page: Page, email: string) {
  const password = seed.consoleUsers.find((u) => u.email === email)!.password;
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
}

/** A participant token as the API mints them (the page reads it in the browser; no database needed). */
function joinToken({ expired = false, e2ee = false } = {}) {
  const at = new AccessToken('a11y-key', 'a11y-secret-0123456789abcdef0123456789', {
    identity: 'p_1',
    name: 'Grace Hopper',
    ttl: expired ? -60 : 600,
    metadata: JSON.stringify({
      metaVersion: 1,
      roomId: 'room_1',
      roomName: 'Weekly sync',
      role: 'ATTENDEE',
      enableChat: true,
      enableE2EE: e2ee,
    }),
  });
  at.addGrant({ roomJoin: true, room: 'cv_room', canPublish: true, canSubscribe: true });
  return at.toJwt();
}

for (const lang of LANGUAGES) {
  test(`the call UI's pre-join, waiting page and error screens in ${lang}`, async ({ page }) => {
    const t = messagesFor(lang);
    // Nothing answers on port 1: joining ends on the "cannot be reached" screen.
    const join = async (token: string) =>
      `/join?lang=${lang}&token=${encodeURIComponent(token)}&url=${encodeURIComponent('ws://127.0.0.1:1')}`;
    await page.goto(await join(await joinToken()));
    await expect(page.getByTestId('joining-as')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expectAccessible(page, `${lang} pre-join`);
    await page.getByRole('button', { name: t.join }).click();
    await expect(page.getByTestId('error-unreachable')).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, `${lang} unreachable error`);

    for (const [error, url] of [
      ['missingToken', `/join?lang=${lang}`],
      ['invalidToken', `/join?lang=${lang}&token=not-a-token&url=ws%3A%2F%2F127.0.0.1%3A1`],
      ['expiredToken', await join(await joinToken({ expired: true }))],
      ['e2eeKeyMissing', await join(await joinToken({ e2ee: true }))],
    ] as const) {
      await page.goto(url);
      await expect(page.getByTestId(`error-${error}`)).toBeVisible();
      await expectAccessible(page, `${lang} ${error} error`);
    }

    await page.route('**/admission', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ status: 'waiting', joinUrl: null }) }),
    );
    for (const state of ['waiting', 'lost'] as const) {
      // A link without its secret, for someone who never had one here, is the invalid-link page.
      await page.goto(
        `/join/waiting?lang=${lang}&room=room_1&${state === 'waiting' ? 'participant=part_1#adm_x' : 'participant=part_2'}`,
      );
      await expect(page.getByTestId(`waiting-${state}`)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expectAccessible(page, `${lang} waiting page (${state})`);
    }
  });
}

test.describe('in a call', () => {
  let live: LiveApp;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    live = await startLiveApp();
  });
  test.afterAll(async () => {
    await live?.close();
  });

  for (const lang of LANGUAGES) {
    test(`the call with each panel open, and the screen after leaving, in ${lang}`, async ({ browser }) => {
      test.setTimeout(90_000);
      const t = messagesFor(lang);
      const { joinUrls } = await live.room([{ id: 'host', name: 'Ada', role: 'HOST', lang }]);
      const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
      const page = await context.newPage();
      await page.goto(joinUrls[0]);
      await page.getByRole('button', { name: t.join }).click();
      await expect(page.getByRole('button', { name: t.panels.hostToggle(0) })).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('.lk-participant-tile video')).toBeVisible();
      await expectAccessible(page, `${lang} call`);
      await eachCallPanel(page, t, (toggle) => expectAccessible(page, `${lang} call with "${toggle}" open`));
      // The settings sheet: devices, background, noise suppression.
      await page.getByRole('button', { name: t.controls.settings, exact: true }).click();
      const settings = page.getByRole('region', { name: t.settings.title });
      await expect(settings.getByRole('combobox', { name: t.settings.camera })).toBeVisible({ timeout: 15_000 });
      await expectAccessible(page, `${lang} call with settings open`);
      await settings.getByRole('button', { name: t.panels.close }).click();
      // A host's Leave asks whether to end the meeting for everyone.
      await page.getByRole('button', { name: t.controls.leave, exact: true }).click();
      const leave = page.getByRole('dialog', { name: t.leave.title });
      await expect(leave).toBeVisible();
      await expectAccessible(page, `${lang} leave dialog`);
      await leave.getByRole('button', { name: t.leave.leave }).click();
      await expect(page.getByTestId('error-left')).toBeVisible({ timeout: 15_000 });
      await expectAccessible(page, `${lang} left screen`);
      await context.close();
    });
  }
});

test('the console for a tenant admin', async ({ page }) => {
  await page.goto(`${base}/console/sign-in`);
  await expectAccessible(page, 'sign-in');
  await signIn(page, 'owner@demo.convene.dev');
  for (const path of [
    '/console',
    '/console/rooms',
    '/console/keys',
    '/console/webhooks',
    '/console/branding',
    '/console/recordings',
    '/console/plan',
  ]) {
    await page.goto(`${base}${path}`);
    await expect(page.getByRole('main')).toBeVisible();
    await expectAccessible(page, path);
  }
});

test('the console for a reseller', async ({ page }) => {
  await signIn(page, 'reseller@demo.convene.dev');
  await expectAccessible(page, '/console/tenants');
  await page.getByTestId('tenant-row').first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, 'tenant detail');
  await page.goto(`${base}/console/tenants/new`);
  await expectAccessible(page, '/console/tenants/new');
});
