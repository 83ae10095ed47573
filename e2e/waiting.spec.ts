import { test, expect } from '@playwright/test';

// The admission endpoint itself is covered by the integration suites (test/rooms); here the
// browser's side: the secret comes from the fragment, is sent only as a Bearer credential, and
// the page continues into the call when admitted.
test('the waiting page polls with its admission secret and continues when admitted', async ({ page }) => {
  const secret = 'adm_TestSecret0123456789abcdefghijklmn';
  let polls = 0;
  const authHeaders: string[] = [];
  await page.route('**/api/v1/rooms/room_1/participants/part_1/admission', async (route) => {
    polls++;
    authHeaders.push(route.request().headers().authorization ?? '');
    const approved = polls >= 2;
    await route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        status: approved ? 'approved' : 'waiting',
        joinUrl: approved ? '/join?admitted=1' : null,
      }),
    });
  });
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(`/join/waiting?room=room_1&participant=part_1#${secret}`);
  await expect(page.getByTestId('waiting-waiting')).toContainText('Waiting to be let in');
  await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('');
  await page.waitForURL('**/join?admitted=1', { timeout: 15_000 });
  expect(authHeaders.every((h) => h === `Bearer ${secret}`)).toBe(true);
  expect(urls.filter((u) => u.includes(secret))).toEqual([]);
});

test('a denied participant is told so; a link without its secret is refused', async ({ page }) => {
  await page.route('**/admission', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ status: 'denied', joinUrl: null }) }),
  );
  await page.goto('/join/waiting?room=room_1&participant=part_2#adm_x');
  await expect(page.getByTestId('waiting-denied')).toContainText('You were not admitted');
  await page.goto('/join/waiting?room=room_1&participant=part_3');
  await expect(page.getByTestId('waiting-lost')).toBeVisible();
});
