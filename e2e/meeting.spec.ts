import { test, expect } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { enter, expectRemoteVideoAdvancing, person, remoteAudioLevel, remoteVideoFrames } from './support/call';

/**
 * Real calls through the hosted call UI: Chromium with fake camera and microphone, the production
 * build (the production server (`server/main.ts`)) on a seeded database, and the development media server forwarding real
 * WebRTC between the browsers (e2e/support/global-setup.ts). Rooms and joins go through the REST
 * API with a tenant's key, exactly as an integrator's backend would. Chat in a real
 * call (stored, live to the other browser, after a reload) is in e2e/chat.spec.ts.
 */
interface Seed {
  providerKey: string;
}
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as Seed;
const base = process.env.CONSOLE_BASE_URL!;

/** A tenant of its own (provisioned by the seeded reseller), so the console's counts of the seeded tenants stay as they are. */
const tenant = { apiKey: '', webhookSecret: '' };
test.beforeAll(async () => {
  const res = await fetch(`${base}/api/v1/provider/tenants`, {
    method: 'POST',
    headers: { 'x-provider-key': seed.providerKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Calls ${Date.now()}` }),
  });
  expect(res.status).toBe(201);
  const body = await res.json();
  tenant.apiKey = body.apiKey.plainTextKey;
  tenant.webhookSecret = body.webhookSecret;
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

let roomCount = 0;
async function createRoom(settings: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/rooms', {
    name: `Call ${++roomCount}`,
    createdByExternalId: 'e2e',
    ...settings,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; mediaRoomName: string };
}

async function join(roomId: string, externalUserId: string, role = 'ATTENDEE') {
  const res = await api('POST', `/api/v1/rooms/${roomId}/join`, {
    externalUserId,
    displayName: externalUserId[0].toUpperCase() + externalUserId.slice(1),
    role,
  });
  expect(res.status).toBe(200);
  return res.body as { joinUrl: string | null; admissionUrl?: string; participant: { id: string } };
}

test.describe.configure({ timeout: 120_000 });

test('two people see and hear each other through the development media server', async ({ browser }) => {
  const room = await createRoom();
  const [ada, bob] = [await person(browser), await person(browser)];
  await enter(ada, (await join(room.id, 'ada', 'HOST')).joinUrl!);
  await enter(bob, (await join(room.id, 'bob')).joinUrl!);
  await expectRemoteVideoAdvancing(ada);
  await expectRemoteVideoAdvancing(bob);
  await expect.poll(() => remoteAudioLevel(ada), { timeout: 15_000 }).toBeGreaterThan(0.001);
  await expect.poll(() => remoteAudioLevel(bob), { timeout: 15_000 }).toBeGreaterThan(0.001);
  await ada.screenshot({ path: 'test-results/e2e/call-two-people.png' });
  // The control bar's device menu opens above its chevron, marks the camera in use, and a choice closes it.
  const chooseCamera = ada.getByRole('button', { name: 'Choose camera' });
  await chooseCamera.click();
  const cameras = ada.getByRole('listbox', { name: 'Choose camera' });
  await expect(cameras.getByRole('option', { name: 'fake_device_0' })).toHaveAttribute('aria-selected', 'true');
  expect((await cameras.boundingBox())!.y + (await cameras.boundingBox())!.height).toBeLessThanOrEqual(
    (await chooseCamera.boundingBox())!.y + 1,
  );
  await cameras.getByRole('option', { name: 'fake_device_0' }).click();
  await expect(cameras).toBeHidden();
  await expect(chooseCamera).toHaveAttribute('aria-expanded', 'false');
  await expectRemoteVideoAdvancing(bob);
  // Our records follow the media layer's webhooks: both are connected.
  await expect
    .poll(
      async () =>
        (await api('GET', `/api/v1/rooms/${room.id}/participants?connectionState=CONNECTED`)).body.data.length,
    )
    .toBe(2);
  await ada.context().close();
  await bob.context().close();
});

test('end-to-end encryption: the same key decodes both ways, another key decodes nothing', async ({ browser }) => {
  const room = await createRoom({ enableE2EE: true });
  const key = 'correct-horse-battery-staple';
  const [ada, bob, eve] = [await person(browser), await person(browser), await person(browser)];
  await enter(ada, `${(await join(room.id, 'ada', 'HOST')).joinUrl}#${encodeURIComponent(key)}`);
  await enter(bob, `${(await join(room.id, 'bob')).joinUrl}#${encodeURIComponent(key)}`);
  await expectRemoteVideoAdvancing(ada);
  await expectRemoteVideoAdvancing(bob);
  await enter(eve, `${(await join(room.id, 'eve')).joinUrl}#${encodeURIComponent('a-different-key')}`);
  // Eve receives the encrypted media (two remote tiles) but cannot decode a frame of it.
  await expect.poll(async () => Object.keys(await remoteVideoFrames(eve)).length, { timeout: 20_000 }).toBe(2);
  await eve.waitForTimeout(4000);
  expect(Math.max(...Object.values(await remoteVideoFrames(eve)))).toBe(0);
  // Meanwhile Ada still decodes Bob (Eve's undecodable frames do not invalidate the shared key).
  const bobOnly = await ada.evaluate(() => {
    const tile = [...document.querySelectorAll('.lk-participant-tile[data-lk-local-participant="false"]')].find((t) =>
      t.textContent?.includes('Bob'),
    );
    return (tile?.querySelector('video')?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.id ?? '';
  });
  const bobFrames = async () => (await remoteVideoFrames(ada))[bobOnly] ?? 0;
  const seen = await bobFrames();
  await expect.poll(bobFrames, { timeout: 15_000 }).toBeGreaterThan(seen + 5);
  for (const p of [ada, bob, eve]) await p.context().close();
});

test('host controls reach the other browser: mute-all, a live poll and question, removal, ending the room', async ({
  browser,
}) => {
  const room = await createRoom();
  const [host, amy, bob] = [await person(browser), await person(browser), await person(browser)];
  await enter(host, (await join(room.id, 'hana', 'HOST')).joinUrl!);
  await enter(amy, (await join(room.id, 'amy')).joinUrl!);
  const bobJoin = await join(room.id, 'bob');
  await enter(bob, bobJoin.joinUrl!);
  await expectRemoteVideoAdvancing(amy, 2);
  const amyMic = amy.locator('.lk-control-bar .lk-button[data-lk-source="microphone"]');
  await expect(amyMic).toHaveAttribute('data-lk-enabled', 'true');

  // Mute everyone (through the host panel) reaches Amy's microphone.
  await host.getByRole('button', { name: /^Host controls/ }).click();
  await host.getByRole('button', { name: 'Mute everyone' }).click();
  await expect(host.getByText('Everyone else is muted.')).toBeVisible();
  await expect(amyMic).toHaveAttribute('data-lk-enabled', 'false', { timeout: 15_000 });

  // A poll opened and a question asked through the API appear live in Amy's panels.
  const poll = await api('POST', '/api/v1/polls', {
    roomId: room.id,
    createdByExternalId: 'hana',
    question: 'Lunch where?',
    options: ['Canteen', 'Park'],
    status: 'OPEN',
  });
  expect(poll.status).toBe(201);
  await expect(amy.getByRole('button', { name: 'Polls (1 open)' })).toBeVisible({ timeout: 15_000 });
  await amy.getByRole('button', { name: 'Polls (1 open)' }).click();
  await expect(amy.getByRole('heading', { name: 'Lunch where?' })).toBeVisible();
  const question = await api('POST', '/api/v1/questions', {
    roomId: room.id,
    text: 'Will there be slides?',
    askerExternalId: 'bob',
    askerName: 'Bob',
  });
  expect(question.status).toBe(201);
  await expect(amy.getByRole('button', { name: 'Q&A (1)' })).toBeVisible({ timeout: 15_000 });

  // Removing Bob shows him the removed screen; ending the room shows Amy the ended screen.
  expect((await api('POST', `/api/v1/rooms/${room.id}/participants/${bobJoin.participant.id}/remove`, {})).status).toBe(
    200,
  );
  await expect(bob.getByTestId('error-removed')).toBeVisible({ timeout: 15_000 });
  expect((await api('POST', `/api/v1/rooms/${room.id}/end`, {})).status).toBe(200);
  await expect(amy.getByTestId('error-ended')).toBeVisible({ timeout: 15_000 });
  await expect(host.getByTestId('error-ended')).toBeVisible({ timeout: 15_000 });
  for (const p of [host, amy, bob]) await p.context().close();
});

test('the waiting room: a parked attendee is admitted by the host in the other browser and enters the call', async ({
  browser,
}) => {
  const room = await createRoom({ enableWaitingRoom: true });
  const [host, amy] = [await person(browser), await person(browser)];
  await enter(host, (await join(room.id, 'hana', 'HOST')).joinUrl!);
  const parked = await join(room.id, 'amy');
  expect(parked.joinUrl).toBeNull();
  await amy.goto(parked.admissionUrl!);
  await expect(amy.getByTestId('waiting-waiting')).toBeVisible();
  await host.getByRole('button', { name: 'Host controls (1 waiting)' }).click({ timeout: 20_000 });
  await host.getByRole('button', { name: 'Admit Amy' }).click();
  await amy.getByRole('button', { name: 'Join meeting' }).click({ timeout: 20_000 });
  await expectRemoteVideoAdvancing(amy);
  await expectRemoteVideoAdvancing(host);
  await host.context().close();
  await amy.context().close();
});

test('a browser joining and leaving reaches the tenant as signed participant.joined and participant.left webhooks', async ({
  browser,
}) => {
  const hook = await startWebhookReceiver();
  try {
    expect(
      (
        await api('PATCH', '/api/v1/tenant/webhook', {
          webhookUrl: hook.url,
          webhookEvents: ['participant.joined', 'participant.left'],
        })
      ).status,
    ).toBe(200);
    const room = await createRoom();
    const ada = await person(browser);
    const joined = await join(room.id, 'ada');
    await enter(ada, joined.joinUrl!);
    // Only this room's deliveries: people from earlier tests may still be leaving theirs.
    const mine = () => hook.received.filter((r) => JSON.parse(r.body).data.roomId === room.id);
    await expect
      .poll(() => mine().map((r) => r.headers['x-webhook-event']), { timeout: 20_000 })
      .toEqual(['participant.joined']);
    await ada.locator('.lk-disconnect-button').click();
    await expect
      .poll(() => mine().map((r) => r.headers['x-webhook-event']), { timeout: 20_000 })
      .toEqual(['participant.joined', 'participant.left']);
    for (const delivery of mine()) {
      const timestamp = String(delivery.headers['x-webhook-timestamp']);
      const expected = `sha256=${createHmac('sha256', tenant.webhookSecret).update(`${timestamp}.${delivery.body}`).digest('hex')}`;
      expect(String(delivery.headers['x-webhook-signature']).split(',')).toContain(expected);
      const event = JSON.parse(delivery.body);
      expect(event).toMatchObject({
        version: 2,
        data: { roomId: room.id, participantId: joined.participant.id, externalUserId: 'ada' },
      });
    }
    await ada.context().close();
  } finally {
    await api('PATCH', '/api/v1/tenant/webhook', { webhookUrl: null, webhookEvents: null });
    await hook.close();
  }
});
