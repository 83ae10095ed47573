import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { AccessToken } from 'livekit-server-sdk';

/**
 * Automated WCAG 2.1 A/AA checks (axe-core) on the pages people use: the call UI's pre-join and
 * an error state, the console's sign-in and main pages for a tenant admin and a reseller. Axe
 * cannot judge everything (focus order, wording); it does catch missing names, labels, contrast.
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

test('the call UI: pre-join and an error state', async ({ page }) => {
  const at = new AccessToken('a11y-key', 'a11y-secret-0123456789abcdef0123456789', {
    identity: 'p_1',
    name: 'Grace Hopper',
    ttl: 600,
    metadata: JSON.stringify({
      metaVersion: 1,
      roomId: 'room_1',
      roomName: 'Weekly sync',
      role: 'ATTENDEE',
      enableChat: true,
    }),
  });
  at.addGrant({ roomJoin: true, room: 'cv_room', canPublish: true, canSubscribe: true });
  await page.goto(`/join?token=${encodeURIComponent(await at.toJwt())}&url=${encodeURIComponent('ws://127.0.0.1:1')}`);
  await expect(page.getByTestId('joining-as')).toBeVisible();
  await expectAccessible(page, 'pre-join');
  await page.goto('/join');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expectAccessible(page, 'missing-token error');
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
