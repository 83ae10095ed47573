import { test, expect, type Page } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { AccessToken } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '../media-server';

let media: DevMediaServer;
test.beforeAll(async () => {
  media = await startDevMediaServer();
});
test.afterAll(() => media.close());

const facts = (over: Record<string, unknown> = {}) => ({
  metaVersion: 1,
  roomId: 'room_1',
  roomName: 'Design review',
  externalUserId: 'u_ada',
  role: 'ATTENDEE',
  externalRole: null,
  enableE2EE: false,
  enableRecording: false,
  autoRecord: false,
  enableAiFeatures: false,
  enableChat: true,
  enableWaitingRoom: false,
  ...over,
});

async function token(opts: { name?: string; secret?: string; meta?: Record<string, unknown> } = {}) {
  const at = new AccessToken(media.apiKey, opts.secret ?? media.apiSecret, {
    identity: 'p_ada',
    name: opts.name ?? 'Ada Lovelace',
    ttl: 600,
    metadata: JSON.stringify(facts(opts.meta)),
  });
  at.addGrant({ roomJoin: true, room: 'cv_room', canPublish: true, canSubscribe: true, canPublishData: true });
  return at.toJwt();
}

/** A well-formed token whose exp is in the past (AccessToken refuses to mint one). */
function expiredToken() {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: media.apiKey, sub: 'p_ada', name: 'Ada', nbf: now - 7200, exp: now - 3600, video: { roomJoin: true, room: 'cv_room' }, metadata: JSON.stringify(facts()) })}`;
  return `${body}.${createHmac('sha256', media.apiSecret).update(body).digest('base64url')}`;
}

const joinPath = (jwt: string, url = media.url) =>
  `/join?token=${encodeURIComponent(jwt)}&url=${encodeURIComponent(url)}`;

async function clickJoin(page: Page) {
  await page.getByRole('button', { name: 'Join meeting' }).click();
}

test('pre-join shows the name from the token, the room and the devices', async ({ page }) => {
  await page.goto(joinPath(await token()));
  await expect(page.getByTestId('joining-as')).toHaveText('Joining as Ada Lovelace');
  await expect(page.getByRole('heading', { name: 'Design review' })).toBeVisible();
  // The preview plays the (fake) camera: frames have arrived, not only a <video> element.
  const preview = page.locator('.lk-prejoin video');
  await expect(preview).toBeVisible();
  await expect
    .poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth * v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Join meeting' })).toBeEnabled();
  // Both device menus list the browser's (fake) devices by name; the camera in use is marked.
  // (Chromium's fake microphones do not honour a non-exact deviceId, so a microphone switch
  // cannot be asserted here: the browser keeps its default one.)
  await page.getByRole('button', { name: 'Choose camera' }).click();
  await expect(page.getByRole('option', { name: 'fake_device_0' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Choose microphone' }).click();
  await expect(page.getByRole('option', { name: 'Fake Audio Input 2' })).toBeVisible();
  await page.getByRole('button', { name: 'Choose microphone' }).click();
  await page.screenshot({ path: 'test-results/e2e/prejoin.png', fullPage: true });
});

test('the E2EE key is read from the fragment, removed from the address bar, and never sent anywhere', async ({
  page,
}) => {
  const key = 'sup3r-s3cret-e2ee-passphrase';
  const seen: string[] = [];
  page.on('request', (req) => seen.push([req.url(), JSON.stringify(req.headers()), req.postData() ?? ''].join('\n')));
  page.on('websocket', (ws) => seen.push(ws.url()));
  await page.goto(`${joinPath(await token({ meta: { enableE2EE: true } }))}#${encodeURIComponent(key)}`);
  await expect(page.getByText('End-to-end encrypted').first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('');
  await clickJoin(page);
  await page.waitForTimeout(1500);
  expect(seen.length).toBeGreaterThan(3);
  expect(seen.filter((s) => s.includes(key) || s.includes(encodeURIComponent(key)))).toEqual([]);
});

test('an E2EE room opened without its key shows a clear refusal', async ({ page }) => {
  await page.goto(joinPath(await token({ meta: { enableE2EE: true } })));
  await expect(page.getByTestId('error-e2eeKeyMissing')).toContainText('This meeting is end-to-end encrypted');
  await expect(page.getByRole('button', { name: 'Join meeting' })).toHaveCount(0);
});

test('an expired token explains itself before any connection', async ({ page }) => {
  await page.goto(joinPath(expiredToken()));
  await expect(page.getByTestId('error-expiredToken')).toContainText('This link has expired');
  await page.screenshot({ path: 'test-results/e2e/error-expired.png', fullPage: true });
});

test('a missing or unreadable token says so', async ({ page }) => {
  await page.goto('/join');
  await expect(page.getByTestId('error-missingToken')).toBeVisible();
  await page.goto(`/join?token=garbage&url=${encodeURIComponent(media.url)}`);
  await expect(page.getByTestId('error-invalidToken')).toBeVisible();
});

test('an unreachable media server is reported, with a retry', async ({ page }) => {
  await page.goto(joinPath(await token(), 'ws://127.0.0.1:9'));
  await clickJoin(page);
  await expect(page.getByTestId('error-unreachable')).toContainText('cannot be reached', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: 'Join meeting' })).toBeVisible();
});

test('a token the media layer refuses is reported as refused', async ({ page }) => {
  await page.goto(joinPath(await token({ secret: 'not-the-media-secret' })));
  await clickJoin(page);
  await expect(page.getByTestId('error-refused')).toContainText('could not be let in', { timeout: 20_000 });
});

/** Answers the call UI's entry check (GET /api/v1/me) as our API would, recording the credential it carried. */
async function answerEntry(page: Page, answer: { status: number; body: object }) {
  const seen: (string | undefined)[] = [];
  await page.route('**/api/v1/me', (route) => {
    seen.push(route.request().headers().authorization);
    return route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
  });
  return seen;
}

const me = (entry: string) => ({ status: 200, body: { isModerator: false, entry, participant: {}, room: {} } });

test('a locked or full room is explained before connecting, with a retry', async ({ page }) => {
  const jwt = await token();
  const seen = await answerEntry(page, me('locked'));
  await page.goto(joinPath(jwt));
  await clickJoin(page);
  await expect(page.getByTestId('error-locked')).toContainText('This meeting is locked');
  expect(seen).toEqual([`Bearer ${jwt}`]);
  await page.unroute('**/api/v1/me');
  await answerEntry(page, me('full'));
  await page.getByRole('button', { name: 'Try again' }).click();
  await clickJoin(page);
  await expect(page.getByTestId('error-roomFull')).toContainText('This meeting is full');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test('a removed participant, one refused from the waiting room and an ended meeting each say so, without a retry', async ({
  page,
}) => {
  const screens = [
    ['removed', 'error-removed', 'You were removed'],
    ['denied', 'error-denied', 'You were not admitted'],
    ['ended', 'error-ended', 'The meeting has ended'],
  ] as const;
  for (const [entry, testId, text] of screens) {
    await answerEntry(page, me(entry));
    await page.goto(joinPath(await token()));
    await clickJoin(page);
    await expect(page.getByTestId(testId)).toContainText(text);
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await page.unroute('**/api/v1/me');
  }
  // A suspended tenant (403) reads as a refused link.
  await answerEntry(page, {
    status: 403,
    body: { error: { code: 'TENANT_SUSPENDED', message: 'This tenant is suspended.' } },
  });
  await page.goto(joinPath(await token()));
  await clickJoin(page);
  await expect(page.getByTestId('error-refused')).toContainText('could not be let in');
});

test('pages other than the call UI refuse to be framed', async ({ request }) => {
  const home = await request.get('/');
  expect(home.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(home.headers()['x-frame-options']).toBe('DENY');
});

test('the API reference renders the OpenAPI document', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.getByText('Convene API').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('menuitem', { name: 'Rooms' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Join: mint a participant token and join URL' })).toBeAttached();
  await page.screenshot({ path: 'test-results/e2e/docs.png' });
});

test('the integration guide renders', async ({ page }) => {
  await page.goto('/docs/guide');
  await expect(page.getByRole('heading', { name: 'Integrating Convene' })).toBeVisible();
  // Numbered from 1, in the order of the contents list.
  await expect(page.getByRole('heading', { name: '1. Install the SDK' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '5. Verify webhooks' })).toBeVisible();
  await expect(page.getByText("import { verifyWebhook, WebhookVerificationError } from '@convene/sdk';")).toBeVisible();
});

test('the call UI carries a frame-ancestors policy from its tenant (none for an unknown token)', async ({
  request,
}) => {
  const res = await request.get(joinPath(await token()));
  expect(res.headers()['content-security-policy']).toMatch(/^frame-ancestors 'none'; script-src 'self'/);
  expect(res.headers()['x-frame-options']).toBeUndefined();
});
