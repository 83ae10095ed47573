import { test, expect, type Page } from '@playwright/test';
import { startDevMediaServer, type DevMediaServer } from '../media-server';
import { createSeededDatabase, startAppServer, type AppServer, type SeededDatabase } from './support/app';

/**
 * The call UI's chat panel in a real call: the whole app (its own database, the production build)
 * with the development media server as its media layer, which sends its webhooks back to the app.
 * A message sent in the panel is stored (the tenant export has it), reaches another participant
 * live over the data channel, and is there again after a reload (history from the API).
 */
let media: DevMediaServer;
let database: SeededDatabase;
let app: AppServer;
let apiKey: string;
let owner: { email: string; password: string };
/** The room of the first test, for the console test. */
let chatRoomId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  media = await startDevMediaServer();
  database = await createSeededDatabase(process.env.E2E_POSTGRES_ADMIN_URL!);
  const seed = JSON.parse(database.seed) as {
    liveTenant: { apiKey: string };
    consoleUsers: { email: string; password: string }[];
  };
  apiKey = seed.liveTenant.apiKey;
  owner = seed.consoleUsers.find((u) => u.email === 'owner@demo.convene.dev')!;
  app = await startAppServer(database.url, { ...media.env(), LOG_LEVEL: 'warn' });
  media.setWebhookUrls([`${app.baseUrl}/api/media/webhook`]);
});
test.afterAll(async () => {
  await app?.stop();
  await media?.close();
  await database?.drop();
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function enterCall(page: Page, joinUrl: string | null) {
  if (joinUrl) await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-control-bar')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /^Chat/ }).click();
  const panel = page.getByRole('region', { name: 'Chat' });
  await expect(panel).toBeVisible();
  return panel;
}

test('a message sent in the chat panel is stored, reaches the others live and is there after a reload', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const room = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'e2e', name: 'Chat check' })).body;
  chatRoomId = room.id;
  const ada = (
    await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'ada', displayName: 'Ada', role: 'HOST' })
  ).body;
  const bob = (await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'bob', displayName: 'Bob' })).body;

  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  const bobChat = await enterCall(bobPage, bob.joinUrl);
  await expect(bobChat.getByText('No messages yet.')).toBeVisible();

  const adaContext = await browser.newContext();
  const page = await adaContext.newPage();
  const chat = await enterCall(page, ada.joinUrl);
  // Stored chat replaces LiveKit's own (peer-to-peer) chat button in this room.
  await expect(page.locator('.lk-control-bar .lk-chat-toggle')).toBeHidden();

  const text = 'Hello <b>everyone</b> — agenda in 5';
  await chat.getByRole('textbox', { name: 'Message' }).fill(text);
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(chat.getByTestId('chat-message')).toHaveCount(1);
  await expect(chat.getByTestId('chat-message')).toContainText(text); // as text: the markup is shown, not rendered
  await expect(chat.locator('b')).toHaveCount(0);

  // Live on the data channel: bob loaded an empty history before the message existed.
  await expect(bobChat.getByTestId('chat-message')).toContainText(text, { timeout: 15_000 });
  await expect(bobChat.getByTestId('chat-message')).toHaveCount(1);

  const exported = await api('GET', `/api/v1/rooms/${room.id}/chat`);
  expect(exported.body.messages).toMatchObject([{ senderExternalUserId: 'ada', senderName: 'Ada', text }]);

  // A reload (same link) is a new connection: the conversation comes back from the API, once.
  await page.reload();
  const again = await enterCall(page, null);
  await expect(again.getByTestId('chat-message')).toHaveCount(1);
  await expect(again.getByTestId('chat-message')).toContainText(text);

  // The media layer's webhooks reached the app: one live session with both people in it.
  await expect
    .poll(
      async () => {
        const [session] = (await api('GET', `/api/v1/rooms/${room.id}/sessions`)).body.data;
        if (!session) return null;
        const detail = (await api('GET', `/api/v1/sessions/${session.id}`)).body;
        return {
          status: detail.status,
          people: detail.attendance.map((a: { externalUserId: string }) => a.externalUserId).sort(),
        };
      },
      { timeout: 15_000 },
    )
    .toEqual({ status: 'LIVE', people: ['ada', 'bob'] });

  await adaContext.close();
  await bobContext.close();
});

test('an end-to-end encrypted room keeps chat peer-to-peer: the panel says so and the API is never asked', async ({
  page,
}) => {
  const room = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'e2e', name: 'Secret', enableE2EE: true }))
    .body;
  const ada = (await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'ada', displayName: 'Ada' })).body;
  const chatRequests: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/v1/chat')) chatRequests.push(req.url());
  });
  await page.goto(`${ada.joinUrl}#${encodeURIComponent('a-shared-passphrase')}`);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await page.getByRole('button', { name: /^Chat/ }).click();
  const panel = page.getByRole('region', { name: 'Chat' });
  await expect(panel.getByTestId('chat-e2ee-note')).toContainText('not stored');
  await expect(panel.getByRole('textbox')).toHaveCount(0);
  expect(chatRequests).toEqual([]);
});

test("the console shows the room's session with its attendance, and downloads attendance and chat as CSV", async ({
  page,
}) => {
  await page.goto(`${app.baseUrl}/console/sign-in`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));

  await page.goto(`${app.baseUrl}/console/rooms/${chatRoomId}`);
  const sessions = page.getByRole('table', { name: 'Sessions' });
  await expect(sessions.getByRole('row')).toHaveCount(2); // the header and one session
  await sessions.getByRole('link', { name: /Attendance/ }).click();
  const attendance = page.getByRole('table', { name: 'Attendance' });
  await expect(attendance.getByRole('row')).toHaveCount(3);
  await expect(attendance).toContainText('Ada');
  await expect(attendance).toContainText('Bob');

  const csvLink = page.getByRole('link', { name: 'Download CSV' });
  const attendanceCsv = await (
    await page.request.get(new URL((await csvLink.getAttribute('href'))!, app.baseUrl).toString())
  ).text();
  const lines = attendanceCsv.trim().split('\r\n');
  expect(lines[0]).toBe(
    '"sessionId","roomId","externalUserId","displayName","role","firstJoinedAt","lastLeftAt","totalSeconds","intervals"',
  );
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[2])
      .sort(),
  ).toEqual(['"ada"', '"bob"']);

  const chatCsv = await (await page.request.get(`${app.baseUrl}/console/rooms/${chatRoomId}/chat.csv`)).text();
  expect(chatCsv).toContain('"Hello <b>everyone</b> — agenda in 5"');
  // Another tenant's room is not reachable through the download either.
  expect((await page.request.get(`${app.baseUrl}/console/rooms/not-a-room/chat.csv`)).status()).toBe(404);
  // Ids that cannot be ours are not found too, never a database error (PostgreSQL refuses a NUL).
  expect((await page.request.get(`${app.baseUrl}/console/rooms/%00/chat.csv`)).status()).toBe(404);
  expect(
    (await page.request.get(`${app.baseUrl}/console/rooms/${chatRoomId}/sessions/%00/attendance.csv`)).status(),
  ).toBe(404);
  expect((await page.request.get(`${app.baseUrl}/console/recordings/%00/download`)).status()).toBe(404);
});
