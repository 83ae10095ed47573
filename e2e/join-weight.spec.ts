import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { AccessToken } from 'livekit-server-sdk';
import { COMPILE_HINT } from '../scripts/compile-hints';

/**
 * The weight of the call UI: the JavaScript a browser fetches, in bytes on the wire (Chromium's
 * encodedDataLength, compressed as served, headers included), against two budgets. The first
 * load (the pre-join, until Join is enabled) at most 250 KB: the call, its panels and the media
 * processors load on demand and must not be part of it. The whole call (pre-join, the call's code
 * prefetched while the person looks at their preview, and the call view once in) at most 340 KB,
 * LiveKit Meet's measured total. The app server sends the build's scripts as Brotli
 * (server/static-brotli.ts; 354 KB as gzip on 2026-11-28, 298 KB as Brotli), and every script
 * here must have come that way. And the served HTML names the page's language before any script
 * runs. The figures go to the test's output (join-weight.json, call-weight.json).
 */
const BUDGET_BYTES = 250 * 1024;
const WHOLE_CALL_BUDGET_BYTES = 340 * 1024;

/** Every script the page fetches from now on, with its bytes on the wire once loaded. */
async function scriptsOf(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, { path: string; encoding: string }>();
  const bytes = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    const encoding = Object.entries(e.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
    if (e.type === 'Script')
      scripts.set(e.requestId, { path: new URL(e.response.url).pathname, encoding: encoding?.[1] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
  return () => [...scripts].map(([id, script]) => ({ ...script, bytes: bytes.get(id) ?? 0 }));
}

async function report(
  testInfo: TestInfo,
  name: string,
  what: string,
  budget: number,
  files: { path: string; encoding: string; bytes: number }[],
) {
  expect(
    files.every((f) => f.bytes > 0),
    'every script finished loading',
  ).toBe(true);
  expect(
    files.filter((f) => f.encoding !== 'br').map((f) => `${f.path} (${f.encoding})`),
    'scripts not sent as Brotli',
  ).toEqual([]);
  const total = files.reduce((sum, f) => sum + f.bytes, 0);
  const figures = { totalBytes: total, totalKB: Math.round(total / 102.4) / 10, budgetKB: budget / 1024, files };
  await testInfo.attach(name, { body: JSON.stringify(figures, null, 2), contentType: 'application/json' });
  console.log(
    `${what}: ${figures.totalKB} KB in ${files.length} files (budget ${figures.budgetKB} KB)\n${files
      .sort((a, b) => b.bytes - a.bytes)
      .map((f) => `  ${(f.bytes / 1024).toFixed(1)} KB ${f.path}`)
      .join('\n')}`,
  );
  expect(total, `${what} (${figures.totalKB} KB)`).toBeLessThanOrEqual(budget);
}

test('/join loads at most 250 KB of JavaScript before someone joins', async ({ page }, testInfo) => {
  const at = new AccessToken('weight-key', 'weight-secret-0123456789abcdef0123456789', {
    identity: 'p_1',
    name: 'Grace Hopper',
    ttl: 600,
    metadata: JSON.stringify({
      metaVersion: 1,
      roomId: 'room_1',
      roomName: 'Weekly sync',
      role: 'HOST',
      enableChat: true,
    }),
  });
  at.addGrant({ roomJoin: true, room: 'cv_room', canPublish: true, canSubscribe: true });

  // The call's own code is fetched 1.5 s after the pre-join screen shows, while the person looks at
  // their preview — not on a connection that asks to save data. The first load is measured as such a
  // browser gets it (the same files, minus that prefetch).
  await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
  const files = await scriptsOf(page);

  await page.goto(`/join?token=${encodeURIComponent(await at.toJwt())}&url=${encodeURIComponent('ws://127.0.0.1:1')}`);
  await expect(page.getByTestId('joining-as')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Join meeting' })).toBeEnabled();
  await page.waitForLoadState('networkidle');
  await report(testInfo, 'join-weight.json', '/join first-load JavaScript', BUDGET_BYTES, files());
});

test('the whole call (pre-join, the prefetched call and the call view) is at most 340 KB of JavaScript', async ({
  browser,
}, testInfo) => {
  // A real call (e2e/support/global-setup.ts: the app with the development media server), so the
  // call view renders with everything it loads for a person in a meeting.
  const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { liveTenant: { apiKey: string } };
  const api = async (path: string, body: unknown) =>
    (
      await fetch(`${process.env.CONSOLE_BASE_URL}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': seed.liveTenant.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
  const room = await api('/api/v1/rooms', { name: 'Weight', createdByExternalId: 'e2e' });
  const joined = await api(`/api/v1/rooms/${room.id}/join`, {
    externalUserId: 'ada',
    displayName: 'Ada',
    role: 'HOST',
  });
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  const files = await scriptsOf(page);
  await page.goto(joined.joinUrl);
  await expect(page.getByRole('button', { name: 'Join meeting' })).toBeEnabled();
  // The person looks at their preview while the call's code is prefetched (1.5 s), then joins.
  await page.waitForTimeout(3000);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-room-container')).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2000); // what the call view fetches as it settles
  await report(testInfo, 'call-weight.json', 'the whole call’s JavaScript', WHOLE_CALL_BUDGET_BYTES, files());
  await context.close();
});

test('the call’s code, fetched ahead of the press, carries V8’s compile hint; the first load does not', async ({
  page,
  request,
}) => {
  // scripts/compile-hints.ts: V8 compiles a marked script's functions as it loads, on a background
  // thread, not one by one on the page's thread in the middle of the join.
  const at = new AccessToken('weight-key', 'weight-secret-0123456789abcdef0123456789', { identity: 'p_2', ttl: 600 });
  at.addGrant({ roomJoin: true, room: 'cv_room', canPublish: true, canSubscribe: true });
  const files = await scriptsOf(page);
  const body = async (path: string) => (await request.get(path)).text();
  await page.goto(`/join?token=${encodeURIComponent(await at.toJwt())}&url=${encodeURIComponent('ws://127.0.0.1:1')}`);
  await expect(page.getByRole('button', { name: 'Join meeting' })).toBeEnabled();
  await page.waitForLoadState('networkidle');
  const firstLoad = files().map((f) => f.path);
  const later = () => files().filter((f) => !firstLoad.includes(f.path));
  // The call is prefetched 1.5 s after the pre-join shows; livekit-client is part of it.
  await expect
    .poll(
      async () => (await Promise.all(later().map((f) => body(f.path)))).some((b) => b.includes('RTCPeerConnection')),
      {
        timeout: 15_000,
      },
    )
    .toBe(true);
  await page.waitForLoadState('networkidle');
  const unmarked = [];
  for (const f of later()) if (!(await body(f.path)).startsWith(COMPILE_HINT)) unmarked.push(f.path);
  expect(unmarked, 'on-demand scripts without the hint').toEqual([]);
  const marked = [];
  for (const path of firstLoad) if ((await body(path)).startsWith(COMPILE_HINT)) marked.push(path);
  expect(marked, 'first-load scripts with the hint').toEqual([]);
});

test('the served HTML of /join says the page’s language on <html> before any script runs', async ({ request }) => {
  const served = async (query: string, headers: Record<string, string> = {}) =>
    /<html[^>]*\blang="([^"]+)"/.exec(await (await request.get(`/join${query}`, { headers })).text())?.[1];
  expect(await served('?lang=de')).toBe('de');
  expect(await served('?lang=fr&token=x.y.z')).toBe('fr');
  // No lang on the link: the browser's language (no tenant default known here), else English.
  expect(await served('', { 'accept-language': 'es-MX,es;q=0.9' })).toBe('es');
  expect(await served('?lang=xx', { 'accept-language': 'ja' })).toBe('en');
  // A client cannot choose it for another page by sending the header itself.
  expect(
    /<html[^>]*\blang="([^"]+)"/.exec(
      await (await request.get('/docs', { headers: { 'x-convene-lang': 'de' } })).text(),
    )?.[1],
  ).toBe('en');
});
