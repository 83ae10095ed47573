import { test, expect, type Page } from '@playwright/test';
import { expectRemoteVideoAdvancing, person } from './support/call';

/**
 * Issue 45 (wrong 3): a meeting in the hosted call UI logs nothing to the browser console. Three
 * people meet; two of them switch layouts back and forth (LiveKit's layouts logged
 * `updatePages(): Element not part of the array` at every switch); the host ends the meeting for
 * everyone (every page logged "DataChannel error … closed unexpectedly"). Any console.error or
 * uncaught error on any page fails the test. Then the console's room page lists the three with
 * their times, and the API reference at /docs loads nothing from another origin.
 */
const base = process.env.CONSOLE_BASE_URL!;
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as {
  liveTenant: { apiKey: string };
  consoleUsers: { email: string; password: string }[];
};

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': seed.liveTenant.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Every console.error and uncaught error of a page, with the page's name. */
function record(page: Page, name: string, into: string[]) {
  page.on('console', (m) => {
    if (m.type() === 'error') into.push(`${name}: console.error: ${m.text()}`);
  });
  page.on('pageerror', (err) => into.push(`${name}: pageerror: ${err.message}`));
}

async function enter(page: Page, joinUrl: string) {
  await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.convene-stage')).toBeVisible({ timeout: 30_000 });
}

const bar = (page: Page) => page.getByRole('toolbar', { name: 'Call controls' });

/** Picks a layout from the layout menu (in the More menu where the bar folded it). */
async function chooseLayout(page: Page, layout: 'Grid' | 'Speaker' | 'Sidebar') {
  const button = bar(page).getByRole('button', { name: 'Layout', exact: true });
  if (!(await button.isVisible())) await bar(page).getByRole('button', { name: 'More' }).click();
  await button.click();
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: layout }).click();
  await page.keyboard.press('Escape');
}

test('a meeting that switches layouts and ends for everyone logs no error in any page', async ({ browser }) => {
  test.setTimeout(240_000);
  const room = (await api('POST', '/api/v1/rooms', { name: 'Quiet console', createdByExternalId: 'hana' })).body;
  const join = async (name: string, role = 'ATTENDEE') =>
    (
      await api('POST', `/api/v1/rooms/${room.id}/join`, {
        externalUserId: name.toLowerCase(),
        displayName: name,
        role,
      })
    ).body.joinUrl as string;
  const errors: string[] = [];
  const pages = { Hana: await person(browser), Amy: await person(browser), Bob: await person(browser) };
  for (const [name, page] of Object.entries(pages)) record(page, name, errors);
  await enter(pages.Hana, await join('Hana', 'HOST'));
  await enter(pages.Amy, await join('Amy'));
  await enter(pages.Bob, await join('Bob'));
  await expectRemoteVideoAdvancing(pages.Amy, 2);

  // Back and forth, as a person trying the layouts would; the focused tile changes each time.
  for (const layout of ['Speaker', 'Sidebar', 'Grid', 'Sidebar', 'Speaker', 'Grid'] as const) {
    await chooseLayout(pages.Amy, layout);
    await chooseLayout(pages.Bob, layout === 'Grid' ? 'Speaker' : 'Grid');
    await expect(pages.Amy.locator('.convene-stage')).toHaveAttribute('data-convene-view', layout.toLowerCase());
    await pages.Amy.waitForTimeout(1500);
  }
  await expectRemoteVideoAdvancing(pages.Amy, 1);

  // A host's Leave asks whether to end the meeting for everyone.
  await pages.Hana.getByRole('button', { name: 'Leave', exact: true }).click();
  await pages.Hana.getByRole('dialog', { name: 'Leave the meeting?' })
    .getByRole('button', { name: 'End meeting for everyone' })
    .click();
  await pages.Hana.getByRole('dialog', { name: 'End the meeting for everyone?' })
    .getByRole('button', { name: 'End meeting' })
    .click();
  for (const page of Object.values(pages))
    await expect(page.getByTestId('error-ended')).toBeVisible({ timeout: 15_000 });
  // Whatever the closing connections would report arrives within a few seconds (the media server
  // closes a page's peer connection once the page has acted on the leave, so its data channels
  // close without an error).
  await pages.Hana.waitForTimeout(3000);
  expect(errors).toEqual([]);
  for (const page of Object.values(pages)) await page.context().close();

  // The console after the meeting: the three, each with a join and a leave time.
  const owner = seed.consoleUsers.find((u) => u.email === 'owner@demo.convene.dev')!;
  const consolePage = await (await browser.newContext()).newPage();
  record(consolePage, 'console', errors);
  await consolePage.goto(`${base}/console/sign-in`);
  await consolePage.getByLabel('Email').fill(owner.email);
  await consolePage.getByLabel('Password').fill(owner.password);
  await consolePage.getByRole('button', { name: 'Sign in' }).click();
  await consolePage.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  await expect
    .poll(async () => (await api('GET', `/api/v1/rooms/${room.id}`)).body.status, { timeout: 15_000 })
    .toBe('ENDED');
  await consolePage.goto(`${base}/console/rooms/${room.id}`);
  const table = consolePage.getByRole('table', { name: 'Participants' });
  await expect(table.getByRole('row')).toHaveCount(4); // a header and the three
  for (const name of ['Hana', 'Amy', 'Bob']) {
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC.*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  }
  await expect(consolePage.getByText('Nobody has joined this room.')).toHaveCount(0);

  // The API reference: rendered, and nothing fetched from another origin.
  const offOrigin: string[] = [];
  consolePage.on('request', (r) => {
    // Redoc's own worker runs from a blob: of this origin; the logo it no longer fetches is data:.
    if (![base, `blob:${base}`, 'data:'].some((origin) => r.url().startsWith(origin))) offOrigin.push(r.url());
  });
  await consolePage.goto(`${base}/docs`);
  await expect(consolePage.getByText('API docs by Redocly')).toBeVisible({ timeout: 30_000 });
  await consolePage.waitForTimeout(1000);
  expect(offOrigin).toEqual([]);
  expect(errors).toEqual([]);
  await consolePage.context().close();
});
