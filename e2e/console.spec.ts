import { test, expect, type Page } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

/**
 * The console's main journeys in Chromium against the production server (`server/main.ts`) on a real, seeded database
 * (e2e/support/global-setup.ts). Signing in goes through next-auth's real CSRF + credentials flow.
 */
interface Seed {
  liveTenant: { id: string };
  sandboxTenant: { id: string };
  consoleUsers: { email: string; password: string; role: string }[];
  liveRoomId: string;
  foreignRoomId: string;
}
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as Seed;
const base = process.env.CONSOLE_BASE_URL!;
const user = (email: string) => seed.consoleUsers.find((u) => u.email === email)!;

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: process.env.CONSOLE_DATABASE_URL });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function signIn(page: Page, email: string, password = user(email).password) {
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (password === user(email).password) await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
}

/** A loopback webhook endpoint whose answer the test controls. */
function receiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status).end(status === 200 ? 'ok' : 'down for maintenance');
    });
  });
  return {
    received,
    answer: (s: number) => (status = s),
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () =>
          r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/convene`),
        ),
      ),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test.describe.configure({ mode: 'serial' });

test('sign-in refuses a wrong password, then an owner lands on the overview', async ({ page }, info) => {
  await signIn(page, 'owner@demo.convene.dev', 'not-the-password');
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await signIn(page, 'owner@demo.convene.dev');
  await page.waitForURL(`${base}/console`);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByText('Live rooms now').locator('..')).toContainText('1');
  await expect(page.getByText('Participants now').locator('..')).toContainText('1');
  await expect(page.getByRole('region', { name: 'API requests per day' })).toBeVisible();
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('console-overview.png'), fullPage: true });
  const [{ count }] = await sql<{ count: string }>('SELECT count(*) FROM "Session"');
  expect(Number(count)).toBeGreaterThan(0);
});

test('an owner rotates a key and sees the old one listed with its expiry', async ({ page }) => {
  await signIn(page, 'owner@demo.convene.dev');
  await page.goto(`${base}/console/keys`);
  await page.getByLabel('On rotation, the old key keeps working for').selectOption({ label: '24 hours' });
  await page.getByTestId('key-row').filter({ hasText: 'active' }).getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('revealed-secret')).toHaveText(/^cv_live_[0-9A-Za-z]{32,}$/);
  await expect(page.getByText(/Rotated; the old key works until/)).toBeVisible();
  const expiring = page.getByTestId('key-row').filter({ hasText: 'expiring' });
  await expect(expiring).toHaveCount(1);
  const [old] = await sql<{ expiresAt: Date }>(
    'SELECT "expiresAt" FROM "ApiKey" WHERE "tenantId" = $1 AND "expiresAt" IS NOT NULL',
    [seed.liveTenant.id],
  );
  const hoursLeft = (old.expiresAt.getTime() - Date.now()) / 3_600_000;
  expect(hoursLeft).toBeGreaterThan(23.9);
  expect(hoursLeft).toBeLessThanOrEqual(24);
  await expect(expiring).toContainText(`expires ${old.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`);
  await expect(page.getByTestId('key-row').filter({ hasText: 'active' })).toHaveCount(1);
});

test('webhooks: set a URL, send a test event to a loopback receiver, replay a failed delivery', async ({
  page,
}, info) => {
  const hook = receiver();
  const url = await hook.start();
  try {
    await signIn(page, 'owner@demo.convene.dev');
    await page.goto(`${base}/console/webhooks`);
    await page.getByLabel('Endpoint URL').fill('not a url');
    await expect(page.getByText('Enter a full URL starting with https://')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save endpoint' })).toBeDisabled();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(page.getByText('Webhook settings saved')).toBeVisible();

    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText(/Test event queued/)).toBeVisible();
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(1);
    expect(hook.received[0].headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(hook.received[0].body)).toMatchObject({ version: 2, event: 'webhook.test' });
    await expect(async () => {
      await page.reload();
      await expect(page.locator('[data-testid="delivery-row"][data-status="delivered"]')).toHaveCount(1, {
        timeout: 1000,
      });
    }).toPass({ timeout: 20_000 });

    // The endpoint goes down: with one attempt allowed in this environment, the delivery fails.
    hook.answer(500);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(2);
    await expect(async () => {
      await page.reload();
      await expect(page.locator('[data-testid="delivery-row"][data-status="failed"]')).toHaveCount(1, {
        timeout: 1000,
      });
    }).toPass({ timeout: 20_000 });
    const failed = page.locator('[data-testid="delivery-row"][data-status="failed"]');
    await failed.getByText('Attempt details').click();
    await expect(failed).toContainText('HTTP 500');
    await expect(failed).toContainText('down for maintenance');

    hook.answer(200);
    await failed.getByRole('button', { name: 'Replay' }).click();
    await expect(page.getByText('Replay queued')).toBeVisible();
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(3);
    // The replay carries the same event id as the failed delivery (receivers dedupe on it).
    expect(hook.received[2].headers['x-webhook-id']).toBe(hook.received[1].headers['x-webhook-id']);
    await expect(async () => {
      await page.reload();
      await expect(page.locator('[data-testid="delivery-row"][data-status="delivered"]')).toHaveCount(2, {
        timeout: 1000,
      });
    }).toPass({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Failed' }).click();
    await expect(page.getByTestId('delivery-row')).toHaveCount(1);
    await page.getByRole('link', { name: 'All' }).click();
    await page.screenshot({ path: info.outputPath('console-deliveries.png'), fullPage: true });
  } finally {
    await hook.stop();
  }
});

test("rooms filter by status; tenant A's admin cannot open tenant B's room", async ({ page }) => {
  await signIn(page, 'owner@demo.convene.dev');
  await page.goto(`${base}/console/rooms`);
  // The tenant's seeded rooms (other specs may add rooms of their own to this tenant).
  await expect(page.getByRole('table', { name: 'Rooms' })).toContainText('Daily standup');
  await expect(page.getByRole('table', { name: 'Rooms' })).toContainText('Sales demo');
  await page.getByRole('link', { name: 'Ended' }).click();
  await expect(page.getByRole('table', { name: 'Rooms' })).toContainText('Sales demo');
  await expect(page.getByRole('table', { name: 'Rooms' })).not.toContainText('Daily standup');
  await expect(page.getByText('Other tenant room')).toHaveCount(0);
  await page.goto(`${base}/console/rooms/${seed.liveRoomId}`);
  await expect(page.getByRole('heading', { name: 'Daily standup' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Participants' })).toContainText('Ada');
  const res = await page.goto(`${base}/console/rooms/${seed.foreignRoomId}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(page.getByText('Other tenant room')).toHaveCount(0);
  // Nor the reseller pages of the provider.
  await page.goto(`${base}/console/tenants/${seed.sandboxTenant.id}`);
  await expect(page).toHaveURL(`${base}/console`);
});

test('a viewer cannot rotate keys: the button is disabled and the server refuses anyway', async ({ page }) => {
  await signIn(page, 'viewer@demo.convene.dev');
  await page.waitForURL(`${base}/console`);
  await page.goto(`${base}/console/keys`);
  const rotate = page.getByTestId('key-row').filter({ hasText: 'active' }).getByRole('button', { name: 'Rotate' });
  await expect(rotate).toBeDisabled();
  const before = await sql('SELECT id FROM "ApiKey" WHERE "tenantId" = $1', [seed.liveTenant.id]);
  // Bypass the UI: call the disabled button's React click handler, so the server action runs
  // with the viewer's session exactly as an enabled button would run it.
  await rotate.evaluate((button) => {
    const key = Object.keys(button).find((k) => k.startsWith('__reactProps'))!;
    (button as unknown as Record<string, { onClick: () => void }>)[key].onClick();
  });
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Your role (viewer) can view this but not change it.')).toBeVisible();
  expect(await sql('SELECT id FROM "ApiKey" WHERE "tenantId" = $1', [seed.liveTenant.id])).toHaveLength(before.length);
});

test('a reseller provisions a tenant and changes its overrides with a preview', async ({ page }) => {
  await signIn(page, 'reseller@demo.convene.dev');
  await page.waitForURL(`${base}/console/tenants`);
  // The reseller sees exactly its provider's tenants (other specs provision some through the API too).
  const [{ n }] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM "Tenant" WHERE "providerId" IS NOT NULL');
  await expect(page.getByTestId('tenant-row')).toHaveCount(n);
  await page.getByRole('link', { name: 'Provision tenant' }).first().click();
  await page.getByLabel('Tenant name').fill('Acme Clinics');
  await page.getByLabel('Plan').selectOption('growth');
  await page.getByRole('button', { name: 'Provision tenant' }).click();
  await expect(page.getByTestId('revealed-secret').first()).toHaveText(/^cv_live_/);
  await page.getByRole('link', { name: 'Open the tenant' }).click();
  await expect(page.getByRole('heading', { name: 'Acme Clinics' })).toBeVisible();

  await page.getByLabel('Participants per room').fill('7');
  // The preview shows the resolved limit before anything is saved.
  await expect(page.getByTestId('resolved-maxParticipantsPerRoom')).toHaveText('7');
  await page.getByLabel('Participants per room').fill('-3');
  await expect(page.getByRole('button', { name: 'Save plan and overrides' })).toBeDisabled();
  await page.getByLabel('Participants per room').fill('7');
  await page.getByRole('button', { name: 'Save plan and overrides' }).click();
  await expect(page.getByText('Plan and overrides saved')).toBeVisible();
  const [row] = await sql<{ entitlementOverrides: unknown; plan: string }>(
    'SELECT "entitlementOverrides", plan FROM "Tenant" WHERE name = $1',
    ['Acme Clinics'],
  );
  expect(row).toEqual({ plan: 'growth', entitlementOverrides: { maxParticipantsPerRoom: 7 } });

  await page.getByRole('button', { name: 'Suspend' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Tenant suspended')).toBeVisible();
  await page.getByRole('link', { name: 'Tenants', exact: true }).click();
  await expect(page.getByTestId('tenant-row').filter({ hasText: 'Acme Clinics' })).toContainText('suspended');
});

test('sessions live in PostgreSQL: an expired session signs out, and signing out deletes the row', async ({ page }) => {
  await signIn(page, 'owner@demo.convene.dev');
  await page.waitForURL(`${base}/console`);
  const [owner] = await sql<{ id: string }>('SELECT id FROM "User" WHERE email = $1', ['owner@demo.convene.dev']);
  await sql('UPDATE "Session" SET expires = now() - interval \'1 minute\' WHERE "userId" = $1', [owner.id]);
  await page.goto(`${base}/console/keys`);
  await expect(page).toHaveURL(/\/console\/sign-in/);

  await signIn(page, 'owner@demo.convene.dev');
  await page.waitForURL(`${base}/console`);
  const sessions = async () =>
    Number(
      (
        await sql<{ n: string }>('SELECT count(*) AS n FROM "Session" WHERE "userId" = $1 AND expires > now()', [
          owner.id,
        ])
      )[0].n,
    );
  const live = await sessions();
  expect(live).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/console\/sign-in/);
  expect(await sessions()).toBe(live - 1);
  await page.goto(`${base}/console`);
  await expect(page).toHaveURL(/\/console\/sign-in/);
});
