import { test, expect, type Page } from '@playwright/test';
import { launchSpeakingChromium } from '../test/support/speech';
import { enter, expectRemoteVideoAdvancing, person, screenshots } from './support/call';
import { createTenant, type TenantApi } from './support/tenant';

/**
 * What the call tells people about themselves, in real calls on the development media server:
 * the person a host muted is told who did it; someone who speaks while muted is told they are
 * muted (not while unmuted, and not for the fake microphone's clicks), at most every 10 s; the
 * Recording badge shows for everyone while a recording started through the API runs; and a host
 * hears a knock when someone starts waiting, unless they turned the knock sound off.
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Feedback');
});
const api: TenantApi['api'] = (method, p, body) => tenant.api(method, p, body);
const joinUrl: TenantApi['joinUrl'] = (roomId, name, role) => tenant.joinUrl(roomId, name, role);

const micControl = (page: Page) => page.locator('.lk-control-bar .lk-button[data-lk-source="microphone"]');
const mutedHint = (page: Page) =>
  page.locator('[data-sonner-toast]').filter({ hasText: 'You are muted. Unmute to be heard.' });

/** Records in the page when each "You are muted" toast appears (page clock, ms), so none can come and go unseen. */
async function recordHints(page: Page) {
  await page.addInitScript(() => {
    const times: number[] = [];
    (window as unknown as { hintTimes: number[] }).hintTimes = times;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll<HTMLElement>('[data-sonner-toast]'))
        if (!el.dataset.seen && el.textContent?.includes('You are muted.')) {
          el.dataset.seen = '1';
          times.push(performance.now());
        }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const hintTimes = (page: Page) => page.evaluate(() => (window as unknown as { hintTimes: number[] }).hintTimes);
const pageNow = (page: Page) => page.evaluate(() => performance.now());

// Two browsers on two shared cores: joining alone can take tens of seconds on a busy machine.
test.describe.configure({ timeout: 180_000 });

test('the muted person is told who muted them; speaking while muted shows "You are muted" with Unmute, never while unmuted', async ({
  browser,
}, testInfo) => {
  // Amy talks: her browser's fake microphone plays speech. Hana's is Chromium's default (a click every 500 ms).
  const { browser: talking } = await launchSpeakingChromium('can everyone hear me? I think my microphone is on', {
    silenceSeconds: 1,
  });
  try {
    const room = await api('POST', '/api/v1/rooms', { name: 'Feedback', createdByExternalId: 'hana' });
    expect(room.status).toBe(201);
    const host = await person(browser);
    const amy = await person(talking);
    await recordHints(host);
    await recordHints(amy);
    await enter(host, await joinUrl(room.body.id, 'Hana', 'HOST'));
    await enter(amy, await joinUrl(room.body.id, 'Amy'));
    await expectRemoteVideoAdvancing(host);
    await expect(micControl(amy)).toHaveAttribute('data-lk-enabled', 'true');

    // Unmuted, Amy talks for several seconds: no hint. Hana mutes herself: her microphone's clicks are no speech.
    await micControl(host).click();
    await expect(micControl(host)).toHaveAttribute('data-lk-enabled', 'false');
    await amy.waitForTimeout(6000);
    expect(await hintTimes(amy)).toEqual([]);
    expect(await hintTimes(host)).toEqual([]);

    // Hana mutes Amy: Amy is told who did it.
    await host.getByRole('button', { name: 'People (2)' }).click();
    const people = host.getByRole('region', { name: 'People' });
    await people.getByRole('button', { name: 'Actions for Amy' }).click();
    await people.getByRole('button', { name: 'Mute Amy' }).click({ timeout: 15_000 });
    await expect(micControl(amy)).toHaveAttribute('data-lk-enabled', 'false', { timeout: 15_000 });
    await expect(amy.getByText('Hana muted your microphone. Unmute when you want to speak.')).toBeVisible();

    // Amy keeps talking, muted: the hint comes, with Unmute.
    await expect(mutedHint(amy)).toBeVisible({ timeout: 20_000 });
    await mutedHint(amy).getByRole('button', { name: 'Unmute' }).click();
    await expect(micControl(amy)).toHaveAttribute('data-lk-enabled', 'true', { timeout: 15_000 });
    await expect(mutedHint(amy)).toHaveCount(0);

    // Muted again well within 10 s of the hint, still talking: the next hint waits out the 10 s, then
    // comes. (Its screenshot is taken now, not of the first: two resizes take seconds on a busy machine.)
    await micControl(amy).click();
    await expect(micControl(amy)).toHaveAttribute('data-lk-enabled', 'false');
    const remutedAt = await pageNow(amy);
    await expect.poll(async () => (await hintTimes(amy)).length, { timeout: 25_000 }).toBe(2);
    await screenshots(amy, testInfo, 'muted-speech-hint');
    const [first, second] = await hintTimes(amy);
    expect(remutedAt - first).toBeLessThan(8000);
    expect(second - first).toBeGreaterThanOrEqual(9900);
    // Still nothing for Hana, muted all along with her clicking microphone.
    expect(await hintTimes(host)).toEqual([]);
    await host.context().close();
    await amy.context().close();
  } finally {
    await talking.close();
  }
});

test('the Recording badge shows for everyone while a recording runs, and goes when it stops', async ({
  browser,
}, testInfo) => {
  const room = await api('POST', '/api/v1/rooms', {
    name: 'Recorded',
    createdByExternalId: 'hana',
    enableRecording: true,
  });
  expect(room.status).toBe(201);
  const [host, amy] = [await person(browser), await person(browser)];
  await enter(host, await joinUrl(room.body.id, 'Hana', 'HOST'));
  await enter(amy, await joinUrl(room.body.id, 'Amy'));
  await expectRemoteVideoAdvancing(host);
  const badge = (page: Page) => page.locator('.convene-tools').getByText('Recording', { exact: true });
  for (const p of [host, amy]) await expect(badge(p)).toHaveCount(0);

  const started = await api('POST', `/api/v1/rooms/${room.body.id}/recordings/start`, { createdByExternalId: 'hana' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  for (const p of [host, amy]) await expect(badge(p)).toBeVisible({ timeout: 30_000 });
  await screenshots(amy, testInfo, 'recording-badge');

  expect((await api('POST', `/api/v1/rooms/${room.body.id}/recordings/stop`)).status).toBe(200);
  for (const p of [host, amy]) await expect(badge(p)).toHaveCount(0, { timeout: 30_000 });
  await expect
    .poll(async () => (await api('GET', `/api/v1/recordings/${started.body.id}`)).body.status, { timeout: 30_000 })
    .toBe('COMPLETED');
  await host.context().close();
  await amy.context().close();
});

test('a host hears a knock when someone starts waiting, sees the count on the toggle, and can turn the knock off', async ({
  browser,
}, testInfo) => {
  const room = await api('POST', '/api/v1/rooms', {
    name: 'Knock knock',
    createdByExternalId: 'hana',
    enableWaitingRoom: true,
  });
  const host = await person(browser);
  // Every play() on a media element, with whether the browser let it play.
  await host.addInitScript(() => {
    const plays: { src: string; played: boolean }[] = [];
    (window as unknown as { knockPlays: typeof plays }).knockPlays = plays;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      const entry = { src: this.currentSrc || this.src, played: false };
      plays.push(entry);
      const result = play.call(this);
      void result.then(
        () => {
          entry.played = true;
        },
        () => undefined,
      );
      return result;
    };
  });
  const knocks = () =>
    host.evaluate(() =>
      (window as unknown as { knockPlays: { src: string; played: boolean }[] }).knockPlays.filter((p) =>
        p.src.endsWith('/sounds/knock.wav'),
      ),
    );
  await enter(host, await joinUrl(room.body.id, 'Hana', 'HOST'));
  const sound = await host.request.get('/sounds/knock.wav');
  expect([sound.status(), sound.headers()['content-type']]).toEqual([200, 'audio/wav']);
  expect(await knocks()).toEqual([]);

  const park = async (name: string) => {
    const parked = await api('POST', `/api/v1/rooms/${room.body.id}/join`, {
      externalUserId: name.toLowerCase(),
      displayName: name,
    });
    expect(parked.body.waitingForApproval).toBe(true);
    return parked.body.participant.id as string;
  };
  await park('Amy');
  const amyToast = host.locator('[data-sonner-toast]').filter({ hasText: 'Amy is waiting to join' });
  await expect(amyToast).toBeVisible({ timeout: 20_000 });
  // The knock played (the browser let it: the host clicked Join on this page).
  await expect
    .poll(knocks, { timeout: 10_000 })
    .toEqual([{ src: expect.stringContaining('/sounds/knock.wav'), played: true }]);
  // The toggle's badge: the count as a visible pill, the full text as its name.
  const toggle = host.getByRole('button', { name: 'Host controls (1 waiting)' });
  await expect(toggle).toBeVisible();
  await expect(toggle.getByTestId('host-badge')).toHaveText('1');
  await screenshots(host, testInfo, 'knock-toast');

  // Turned off in the toast: remembered in this browser, shown the same in the host controls.
  const inToast = amyToast.getByRole('button', { name: 'Knock sound' });
  await expect(inToast).toHaveAttribute('aria-pressed', 'true');
  await inToast.click();
  await expect(inToast).toHaveAttribute('aria-pressed', 'false');
  expect(await host.evaluate(() => localStorage.getItem('convene.knockSound'))).toBe('off');
  await toggle.click();
  const panel = host.getByRole('region', { name: 'Host controls' });
  await expect(panel.getByRole('button', { name: 'Knock sound' })).toHaveAttribute('aria-pressed', 'false');

  // Bob knocks: his toast, the count 2, no knock.
  await park('Bob');
  await expect(host.locator('[data-sonner-toast]').filter({ hasText: 'Bob is waiting to join' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(host.getByRole('button', { name: 'Host controls (2 waiting)' })).toBeVisible();
  await expect(host.getByTestId('host-badge')).toHaveText('2');
  await host.waitForTimeout(1000);
  expect(await knocks()).toHaveLength(1);

  // On again from the host controls: Cleo's arrival knocks.
  await panel.getByRole('button', { name: 'Knock sound' }).click();
  expect(await host.evaluate(() => localStorage.getItem('convene.knockSound'))).toBeNull();
  await park('Cleo');
  await expect.poll(async () => (await knocks()).length, { timeout: 20_000 }).toBe(2);
  await host.context().close();
});
