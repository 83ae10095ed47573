import { test, expect } from '@playwright/test';
import { AccessToken } from 'livekit-server-sdk';

/**
 * The weight of the call UI's first load: the JavaScript a browser fetches to show /join's
 * pre-join, in bytes on the wire (Chromium's encodedDataLength, compressed as served, headers
 * included), against a budget. The call, its panels and the media processors load on demand
 * and must not be part of it. The figures go to the test's output (join-weight.json).
 */
const BUDGET_BYTES = 250 * 1024;

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
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, string>();
  const bytes = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, new URL(e.response.url).pathname);
  });
  cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));

  await page.goto(`/join?token=${encodeURIComponent(await at.toJwt())}&url=${encodeURIComponent('ws://127.0.0.1:1')}`);
  await expect(page.getByTestId('joining-as')).toBeVisible();
  await page.waitForLoadState('networkidle');

  const files = [...scripts].map(([id, path]) => ({ path, bytes: bytes.get(id) ?? 0 }));
  expect(
    files.every((f) => f.bytes > 0),
    'every script finished loading',
  ).toBe(true);
  const total = files.reduce((sum, f) => sum + f.bytes, 0);
  const report = { totalBytes: total, totalKB: Math.round(total / 102.4) / 10, budgetKB: BUDGET_BYTES / 1024, files };
  await testInfo.attach('join-weight.json', { body: JSON.stringify(report, null, 2), contentType: 'application/json' });
  console.log(
    `/join first-load JavaScript: ${report.totalKB} KB in ${files.length} files (budget ${report.budgetKB} KB)\n${files
      .sort((a, b) => b.bytes - a.bytes)
      .map((f) => `  ${(f.bytes / 1024).toFixed(1)} KB ${f.path}`)
      .join('\n')}`,
  );
  expect(total, `/join first-load JavaScript (${report.totalKB} KB)`).toBeLessThanOrEqual(BUDGET_BYTES);
});
