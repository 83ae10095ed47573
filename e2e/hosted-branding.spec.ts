import { test, expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { useSilentMediaServer } from './support/silent-media';
import AxeBuilder from '@axe-core/playwright';
import { ACME_BRANDING, serveAcmeLogo } from './support/branding';

/**
 * A tenant's branding and language on the hosted pages, in Chromium against the console suite's
 * server (it has a database: branding is the tenant's). Screenshots of the branded pre-join,
 * call, waiting page and an error screen, and of each language's pre-join, are attached to the
 * test output (test-results/e2e/...).
 *
 * Runs after console.spec.ts (file order): it provisions tenants under the seeded reseller, whose
 * tenant list that spec counts.
 */
const base = process.env.CONSOLE_BASE_URL!;
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { providerKey: string };

const silentMedia = useSilentMediaServer();

async function tenant(request: APIRequestContext, branding: Record<string, unknown> = ACME_BRANDING) {
  const res = await request.post(`${base}/api/v1/provider/tenants`, {
    headers: { 'x-provider-key': seed.providerKey },
    data: { name: 'Acme', branding },
  });
  expect(res.status()).toBe(201);
  return { 'x-api-key': (await res.json()).apiKey.plainTextKey as string };
}

async function join(
  request: APIRequestContext,
  headers: Record<string, string>,
  room: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const r = await (
    await request.post(`${base}/api/v1/rooms`, {
      headers,
      data: { createdByExternalId: 'teacher', name: 'Physics 101', ...room },
    })
  ).json();
  const res = await request.post(`${base}/api/v1/rooms/${r.id}/join`, {
    headers,
    data: { externalUserId: `u${Math.random()}`, displayName: 'Ada Lovelace', ...extra },
  });
  expect(res.ok()).toBe(true);
  return { room: r, ...(await res.json()) };
}

/** The join URL pointed at another media URL (the API's names the unreachable default). */
const joinAt = (joinUrl: string, media: string) => {
  const url = new URL(joinUrl);
  url.searchParams.set('url', media);
  return url.toString();
};

async function shot(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    violations.map(
      (v) =>
        `${v.id}: ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    ),
    `${what} has accessibility violations`,
  ).toEqual([]);
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test.beforeEach(async ({ page }) => {
  await serveAcmeLogo(page);
});

test('the branded pre-join, call, waiting page and error screen', async ({ page, request }, info) => {
  const headers = await tenant(request);
  const joined = await join(request, headers);
  await page.goto(joinAt(joined.joinUrl, silentMedia.url));
  await expect(page.getByTestId('joining-as')).toHaveText('Joining as Ada Lovelace');
  await expect(page).toHaveTitle('Join meeting · Acme Classroom');
  const mark = page.getByTestId('brand-mark');
  await expect(mark).toContainText('Acme Classroom');
  await expect(mark.locator('img')).toHaveAttribute('src', ACME_BRANDING.logoUrl);
  await expect.poll(() => mark.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByTestId('hosted-shell')).toHaveCSS('background-color', rgb(ACME_BRANDING.backgroundColor));
  await expect(page.getByRole('button', { name: 'Join meeting' })).toHaveCSS(
    'background-color',
    rgb(ACME_BRANDING.accentColor),
  );
  await expectAccessible(page, 'branded pre-join');
  await shot(page, info, 'branded-prejoin');

  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('group', { name: 'Meeting tools' })).toBeVisible();
  await expect(page.getByTestId('brand-mark')).toContainText('Acme Classroom');
  await shot(page, info, 'branded-call');

  // Error screen: an ended meeting, as GET /me answers it.
  await page.route('**/api/v1/me', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ entry: 'ended' }) }),
  );
  await page.goto(joinAt(joined.joinUrl, silentMedia.url));
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByTestId('error-ended')).toBeVisible();
  await expect(page.getByTestId('brand-mark')).toContainText('Acme Classroom');
  await expect(page.getByTestId('hosted-shell')).toHaveCSS('background-color', rgb(ACME_BRANDING.backgroundColor));
  await expectAccessible(page, 'branded error screen');
  await shot(page, info, 'branded-error');

  // A link that reads as nobody's still gets an error screen, in Convene's own look.
  await page.goto(`${base}/join?token=garbage&url=${encodeURIComponent(silentMedia.url)}`);
  await expect(page.getByTestId('error-invalidToken')).toBeVisible();
  await expect(page.getByTestId('brand-mark')).toHaveCount(0);

  // The waiting page.
  const parked = await join(request, headers, { enableWaitingRoom: true });
  expect(parked.waitingForApproval).toBe(true);
  await page.goto(parked.admissionUrl);
  await expect(page.getByTestId('waiting-waiting')).toBeVisible();
  await expect(page).toHaveTitle('Waiting · Acme Classroom');
  await expect(page.getByTestId('brand-mark')).toContainText('Acme Classroom');
  await expect(page.getByTestId('hosted-shell')).toHaveCSS('background-color', rgb(ACME_BRANDING.backgroundColor));
  await expectAccessible(page, 'branded waiting page');
  await shot(page, info, 'branded-waiting');
});

test('a background image sits under a dark veil; the provider’s default brands tenants without their own', async ({
  page,
  request,
}, info) => {
  const provider = { 'x-provider-key': seed.providerKey };
  const before = await (await request.get(`${base}/api/v1/provider/branding`, { headers: provider })).json();
  try {
    expect(
      (
        await request.patch(`${base}/api/v1/provider/branding`, {
          headers: provider,
          data: { productName: 'Reseller Video', accentColor: '#5b21b6' },
        })
      ).status(),
    ).toBe(200);
    const headers = await tenant(request, { backgroundImageUrl: 'https://cdn.acme.example/bg.svg' });
    const joined = await join(request, headers);
    await page.goto(joinAt(joined.joinUrl, silentMedia.url));
    await expect(page.getByTestId('brand-mark')).toContainText('Reseller Video');
    await expect(page.getByRole('button', { name: 'Join meeting' })).toHaveCSS('background-color', rgb('#5b21b6'));
    expect(await page.getByTestId('hosted-shell').evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(
      /^linear-gradient\(rgba\(0, 0, 0, 0\.65\).*url\("https:\/\/cdn\.acme\.example\/bg\.svg"\)$/,
    );
    await expectAccessible(page, 'pre-join with a background image');
    await shot(page, info, 'provider-default-prejoin');
  } finally {
    await request.patch(`${base}/api/v1/provider/branding`, { headers: provider, data: before });
  }
});

const PREJOIN: Record<string, { joiningAs: string; join: string }> = {
  en: { joiningAs: 'Joining as Ada Lovelace', join: 'Join meeting' },
  de: { joiningAs: 'Sie nehmen teil als Ada Lovelace', join: 'Besprechung beitreten' },
  es: { joiningAs: 'Te unirás como Ada Lovelace', join: 'Unirse a la reunión' },
  fr: { joiningAs: 'Vous rejoignez en tant que Ada Lovelace', join: 'Rejoindre la réunion' },
};

test('each language’s pre-join, chosen by lang on the join (POST /join accepts it)', async ({
  page,
  request,
}, info) => {
  const headers = await tenant(request);
  for (const [lang, text] of Object.entries(PREJOIN)) {
    const joined = await join(request, headers, {}, { lang });
    expect(new URL(joined.joinUrl).searchParams.get('lang')).toBe(lang);
    await page.goto(joinAt(joined.joinUrl, silentMedia.url));
    await expect(page.getByTestId('joining-as')).toHaveText(text.joiningAs);
    await expect(page.getByRole('button', { name: text.join })).toBeVisible();
    await expect(page.getByTestId('hosted-shell')).toHaveAttribute('lang', lang);
    await shot(page, info, `prejoin-${lang}`);
  }
  const bad = await request.post(`${base}/api/v1/rooms/${(await join(request, headers)).room.id}/join`, {
    headers,
    data: { externalUserId: 'x', displayName: 'X', lang: 'tlh' },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.details.map((d: { field: string }) => d.field)).toEqual(['lang']);
});

test('German with long strings: nothing overflows on a phone or a desktop; errors and the waiting page speak it too', async ({
  page,
  request,
}, info) => {
  const headers = await tenant(request, {
    ...ACME_BRANDING,
    productName: 'Fortbildungsakademie Nordrhein-Westfalen',
    defaultLanguage: 'de',
  });
  const joined = await join(
    request,
    headers,
    { name: 'Qualitätssicherungsbesprechung der Landesfortbildungseinrichtungen' },
    { displayName: 'Maximiliane Schwarzenberg-Hohenlohe' },
  );
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(joinAt(joined.joinUrl, silentMedia.url)); // no lang: the tenant's default
    await expect(page.getByTestId('joining-as')).toHaveText('Sie nehmen teil als Maximiliane Schwarzenberg-Hohenlohe');
    // Once laid out (the camera preview starts at its stream's size for a moment).
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
        message: `horizontal overflow at ${width}px`,
      })
      .toBeLessThanOrEqual(0);
    const join = page.getByRole('button', { name: 'Besprechung beitreten' });
    await expect(join).toBeInViewport();
    await expectAccessible(page, `German pre-join at ${width}px`);
    await shot(page, info, `prejoin-de-${width}`);
  }
  await page.goto(`${joinAt(joined.joinUrl, silentMedia.url)}&lang=es`); // lang beats the tenant default
  await expect(page.getByTestId('joining-as')).toHaveText('Te unirás como Maximiliane Schwarzenberg-Hohenlohe');

  await page.route('**/api/v1/me', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ entry: 'locked' }) }),
  );
  await page.goto(joinAt(joined.joinUrl, silentMedia.url));
  await page.getByRole('button', { name: 'Besprechung beitreten' }).click();
  await expect(page.getByTestId('error-locked')).toContainText('Diese Besprechung ist gesperrt');
  await expect(page.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
  await shot(page, info, 'error-de');

  const parked = await join(request, headers, { enableWaitingRoom: true });
  await page.goto(parked.admissionUrl);
  await expect(page.getByTestId('waiting-waiting')).toContainText('Warten auf Einlass');
});

test('without lang or a tenant default, the browser’s language', async ({ browser, request }) => {
  const headers = await tenant(request);
  const joined = await join(request, headers);
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await serveAcmeLogo(page);
  await page.goto(joinAt(joined.joinUrl, silentMedia.url));
  await expect(page.getByTestId('joining-as')).toHaveText(PREJOIN.fr.joiningAs);
  await context.close();
});

test('the console edits the branding with a live preview, checked as you type', async ({ page }, info) => {
  const users = (
    JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { consoleUsers: { email: string; password: string }[] }
  ).consoleUsers;
  const owner = users.find((u) => u.email === 'owner@demo.convene.dev')!;
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  await page.getByRole('link', { name: 'Branding' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Branding' })).toBeVisible();
  const preview = page.getByTestId('branding-preview');
  const save = page.getByRole('button', { name: 'Save branding' });
  try {
    await page.getByLabel('Product name', { exact: true }).fill('Demo Academy');
    await expect(preview.getByTestId('brand-mark')).toHaveText('Demo Academy');
    await page.getByLabel('Accent colour', { exact: true }).fill('#ffe066');
    await expect(page.getByText(/Accent colour too light for white text on it: contrast 1\.\d+:1/)).toBeVisible();
    await expect(save).toBeDisabled();
    await page.getByLabel('Accent colour', { exact: true }).fill('#7c2d12');
    await expect(preview.getByRole('button', { name: 'Join meeting' })).toHaveCSS('background-color', rgb('#7c2d12'));
    await page.getByLabel('Logo URL', { exact: true }).fill('http://cdn.acme.example/logo.svg');
    await expect(page.getByText('Logo URL must be an https:// URL.')).toBeVisible();
    await page.getByLabel('Logo URL', { exact: true }).fill('https://cdn.acme.example/logo.svg');
    await page.getByLabel('Default language').selectOption('de');
    await expect(preview).toContainText('Besprechung beitreten');
    await shot(page, info, 'console-branding');
    await save.click();
    await expect(page.getByText('Branding saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Product name', { exact: true })).toHaveValue('Demo Academy');
    await expect(page.getByLabel('Accent colour', { exact: true })).toHaveValue('#7c2d12');
  } finally {
    for (const label of ['Product name', 'Logo URL', 'Accent colour'])
      await page.getByLabel(label, { exact: true }).fill('');
    await page.getByLabel('Default language').selectOption('');
    await save.click();
    await expect(page.getByText('Branding saved').first()).toBeVisible();
  }
});

test('a reseller sets a tenant’s branding from the tenant page', async ({ page, request }) => {
  const users = (
    JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { consoleUsers: { email: string; password: string }[] }
  ).consoleUsers;
  const reseller = users.find((u) => u.email === 'reseller@demo.convene.dev')!;
  const headers = await tenant(request, {});
  const id = (await (await request.get(`${base}/api/v1/tenant`, { headers })).json()).id as string;
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel('Email').fill(reseller.email);
  await page.getByLabel('Password').fill(reseller.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  await page.goto(`${base}/console/tenants/${id}`);
  const card = page.getByRole('region', { name: 'Call UI branding' });
  await card.getByLabel('Product name', { exact: true }).fill('Acme Clinics Video');
  await card.getByLabel('Background colour', { exact: true }).fill('#f8fafc');
  await expect(card.getByText(/Background colour too light for the light text on it/)).toBeVisible();
  await card.getByLabel('Background colour', { exact: true }).fill('#1e293b');
  await card.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Branding saved')).toBeVisible();
  expect(await (await request.get(`${base}/api/v1/tenant/branding`, { headers })).json()).toMatchObject({
    productName: 'Acme Clinics Video',
    backgroundColor: '#1e293b',
  });
});
