import { test, expect, type Page } from '@playwright/test';
import { keepScreenshot, wordProblems } from './support/words';

/**
 * The console and the docs a tenant reads (issue 45, item 13), against the seeded app: counts in
 * words that agree with them ("1 day", never "1 days"); the branding editor's preview is the real
 * pre-join screen in the tenant's branding; the reseller's tenant table and every console page fit
 * a phone with no word broken or cut; /docs opens as "Convene API (v1)" with the Rooms section in
 * the order an integration meets it; /docs/guide has a contents list, copy buttons and code that
 * wraps instead of hiding. Screenshots at 1440 × 900 and 390 × 844 are attached.
 */
const base = process.env.CONSOLE_BASE_URL!;
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as {
  liveTenant: { apiKey: string };
  liveRoomId: string;
  consoleUsers: { email: string; password: string }[];
};
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
test.describe.configure({ timeout: 180_000 });

async function signIn(page: Page, email: string) {
  const user = seed.consoleUsers.find((u) => u.email === email)!;
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
/** The outermost elements that reach past the window's right edge, named so a failure says what. */
const widest = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !(el.parentElement && el.parentElement.getBoundingClientRect().right > window.innerWidth + 1))
      .slice(0, 3)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}">`)
      .join(', '),
  );

/** Each page at both sizes: nothing wider than the window, no word broken or cut. */
async function checkPages(page: Page, paths: string[], testInfo: Parameters<Parameters<typeof test>[2]>[1]) {
  const problems: string[] = [];
  for (const path of paths) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${base}${path}`);
      await page.waitForLoadState('networkidle');
      const name = `${path.replace(/^\/console\/?/, '').replace(/\W+/g, '-') || 'overview'}-${size.width}`;
      const over = await sideways(page);
      if (over > 0) problems.push(`${path} at ${size.width}: ${over} px wider than the window: ${await widest(page)}`);
      for (const p of await wordProblems(page, 'main'))
        problems.push(`${path} at ${size.width}: ${p.kind} "${p.text}" in ${p.where}`);
      await keepScreenshot(page, testInfo, `console-${name}`);
    }
  }
  expect(problems, problems.join('\n')).toEqual([]);
}

test('a tenant’s console: counts in words, every page fits a phone, the branding preview is the real pre-join', async ({
  page,
}, testInfo) => {
  await signIn(page, 'owner@demo.convene.dev');
  await page.goto(`${base}/console`);
  const overview = await page.locator('main').innerText();
  expect(overview).toMatch(/in the last \d+ days\./);
  expect(overview).not.toMatch(/\b1 (days|room sessions|participant-minutes|API requests)\b/);
  expect(overview).not.toMatch(/\bon 1 days\b/);

  const rooms = await page.request.get(`${base}/api/v1/rooms?limit=1`, {
    headers: { 'x-api-key': seed.liveTenant.apiKey },
  });
  const roomId = (await rooms.json()).data[0].id as string;
  await checkPages(
    page,
    [
      '/console',
      '/console/rooms',
      `/console/rooms/${roomId}`,
      // The seeded room with a past meeting: its people, sessions and events tables.
      `/console/rooms/${seed.liveRoomId}`,
      '/console/recordings',
      '/console/keys',
      '/console/webhooks',
      '/console/branding',
      '/console/plan',
    ],
    testInfo,
  );

  // The preview: the pre-join's own parts, as the join page shows them for this tenant.
  await page.setViewportSize(SIZES[0]);
  await page.goto(`${base}/console/branding`);
  const preview = page.getByTestId('branding-preview');
  await expect(preview.getByRole('heading', { level: 1, name: 'Physics 101' })).toBeVisible();
  const parts = (root: ReturnType<Page['locator']>) =>
    root.evaluate((el) =>
      // The setup check beside the form (speakers, connection) is the join page's own: it needs the participant.
      [
        ...el.querySelectorAll(
          'h1, [data-testid="joining-as"], [data-testid="brand-mark"], .lk-video-container, button',
        ),
      ]
        .filter(
          (e) => (e as HTMLElement).offsetParent !== null && !e.closest('[aria-labelledby="convene-precall-title"]'),
        )
        .map((e) =>
          e.tagName === 'BUTTON'
            ? `button:${e.getAttribute('aria-label') ?? e.textContent?.trim()}`
            : e.classList.contains('lk-video-container')
              ? 'preview'
              : `${e.tagName.toLowerCase()}:${e.getAttribute('data-testid') ?? ''}`,
        ),
    );
  const previewParts = await parts(preview);
  const accent = await preview
    .getByRole('button', { name: 'Join meeting' })
    .evaluate((b) => getComputedStyle(b).backgroundColor);
  await keepScreenshot(page, testInfo, 'console-branding-preview-1440');

  const room = await page.request.post(`${base}/api/v1/rooms`, {
    headers: { 'x-api-key': seed.liveTenant.apiKey },
    data: { name: 'Physics 101', createdByExternalId: 'e2e' },
  });
  const joined = await page.request.post(`${base}/api/v1/rooms/${(await room.json()).id}/join`, {
    headers: { 'x-api-key': seed.liveTenant.apiKey },
    data: { externalUserId: 'ada', displayName: 'Ada Lovelace' },
  });
  const join = await page
    .context()
    .browser()!
    .newContext({ permissions: ['camera', 'microphone'], viewport: SIZES[0] });
  const real = await join.newPage();
  await real.goto((await joined.json()).joinUrl);
  await expect(real.getByRole('button', { name: 'Join meeting' })).toBeVisible();
  expect(await parts(real.locator('main.convene-prejoin'))).toEqual(previewParts);
  expect(
    await real.getByRole('button', { name: 'Join meeting' }).evaluate((b) => getComputedStyle(b).backgroundColor),
  ).toBe(accent);
  await keepScreenshot(real, testInfo, 'real-prejoin-1440');
  await join.close();
});

test('a reseller’s tenant table fits a phone; /docs and /docs/guide read in order, with contents and copy buttons', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signIn(page, 'reseller@demo.convene.dev');
  await checkPages(page, ['/console/tenants'], testInfo);
  await page.setViewportSize(SIZES[1]);
  await page.goto(`${base}/console/tenants`);
  const row = page.getByTestId('tenant-row').first();
  // A card: its cells stack, each under its column's name, inside the window.
  const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().right));
  for (const right of cells) expect(right).toBeLessThanOrEqual(390);
  const tenantPage = (await row.getByRole('link').first().getAttribute('href')) ?? '';
  expect(tenantPage).toMatch(/^\/console\/tenants\//);
  await checkPages(page, [tenantPage], testInfo);

  // /docs: the title, then Rooms as an integration goes: create, list, join, get.
  await page.setViewportSize(SIZES[0]);
  await page.goto(`${base}/docs`);
  await expect(page.getByRole('heading', { level: 1, name: 'Convene API (v1)' })).toBeVisible({ timeout: 30_000 });
  const content = await page.locator('.api-content').innerText();
  const at = (s: string) => content.indexOf(s);
  for (const s of [
    'Create a room',
    'List rooms',
    'Join: mint a participant token and join URL',
    'Get a room',
    'End a room',
  ])
    expect(at(s), s).toBeGreaterThan(0);
  expect(at('Create a room')).toBeLessThan(at('List rooms'));
  expect(at('List rooms')).toBeLessThan(at('Join: mint a participant token and join URL'));
  expect(at('Join: mint a participant token and join URL')).toBeLessThan(at('Get a room'));
  expect(at('Get a room')).toBeLessThan(at('End a room'));
  await keepScreenshot(page, testInfo, 'docs-1440');

  // /docs/guide: a contents list that leads to each section, copy buttons, code that fits.
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`${base}/docs/guide`);
    const contents = page.getByRole('navigation', { name: 'Contents' });
    const entries = contents.getByRole('link');
    expect(await entries.count()).toBeGreaterThanOrEqual(8);
    for (const link of await entries.all()) {
      const id = (await link.getAttribute('href'))!.slice(1);
      await expect(page.locator(`h2#${id}`)).toContainText((await link.innerText()).trim());
    }
    await contents.getByRole('link', { name: 'Verify webhooks' }).click();
    await expect(page).toHaveURL(/#webhooks$/);
    await expect(page.locator('h2#webhooks')).toBeInViewport();
    const blocks = page.locator('pre');
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(await blocks.count());
    const clipped = await blocks.evaluateAll((pres) => pres.filter((p) => p.scrollWidth > p.clientWidth + 1).length);
    expect(clipped, 'code lines wider than their block').toBe(0);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await keepScreenshot(page, testInfo, `guide-${size.width}`);
  }
  const first = page.locator('pre').first();
  await first.locator('xpath=..').getByRole('button', { name: 'Copy' }).click();
  await expect(first.locator('xpath=..').getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await first.innerText()).trim());
  await context.close();
});
