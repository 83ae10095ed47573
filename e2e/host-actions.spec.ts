import { test, expect, type Page } from '@playwright/test';
import { createTenant, type TenantApi } from './support/tenant';
import { enter, expectRemoteVideoAdvancing, hostWithTwo, person, screenshots } from './support/call';

/**
 * Per-person host actions from the People panel and "End meeting for everyone" (in the host's Leave dialog), in real calls on
 * the development media server: the host acts in one browser, the person acted on sees it in
 * theirs (muted and told why, camera off, a new role, removed, the meeting ended).
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Host actions');
});
const api: TenantApi['api'] = (...args) => tenant.api(...args);
const joinUrl: TenantApi['joinUrl'] = (...args) => tenant.joinUrl(...args);

const control = (page: Page, source: 'microphone' | 'camera') =>
  page.locator(`.lk-control-bar .lk-button[data-lk-source="${source}"]`);

// Three browsers on two shared cores: joining alone can take tens of seconds on a busy machine.
test.describe.configure({ timeout: 150_000 });

test('a host mutes, stops video, makes a co-host, removes someone and ends the meeting; the others see each', async ({
  browser,
}, testInfo) => {
  const { roomId, host, amy, bob } = await hostWithTwo(browser, tenant);
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(control(amy, 'camera')).toHaveAttribute('data-lk-enabled', 'true');

  // The host's People panel: the actions for Amy.
  await host.getByRole('button', { name: 'People (3)' }).click();
  const people = host.getByRole('region', { name: 'People' });
  await people.getByRole('button', { name: 'Actions for Amy' }).click();
  await expect(people.getByRole('button', { name: 'Mute Amy' })).toBeVisible({ timeout: 15_000 });
  await screenshots(host, testInfo, 'people-panel-host-actions');

  // Mute: Amy's microphone goes off and she is told who did it.
  await people.getByRole('button', { name: 'Mute Amy' }).click();
  await expect(control(amy, 'microphone')).toHaveAttribute('data-lk-enabled', 'false', { timeout: 15_000 });
  await expect(amy.getByText('Hana muted your microphone. Unmute when you want to speak.')).toBeVisible();
  await screenshots(amy, testInfo, 'muted-by-host');
  // Bob was not muted, and was not told anything.
  await expect(control(bob, 'microphone')).toHaveAttribute('data-lk-enabled', 'true');
  await expect(bob.getByText(/muted your microphone/)).toHaveCount(0);

  // Stop video: Amy's camera goes off.
  await people.getByRole('button', { name: 'Stop video Amy' }).click();
  await expect(control(amy, 'camera')).toHaveAttribute('data-lk-enabled', 'false', { timeout: 15_000 });
  await expect(amy.getByText('Hana turned off your camera.')).toBeVisible();

  // Co-host: Amy's People panel shows Bob as a moderator (the role travels in his metadata).
  await people.getByRole('button', { name: 'Actions for Bob' }).click();
  await people.getByRole('button', { name: 'Make co-host Bob' }).click();
  await expect(host.getByText('Bob’s role was changed.')).toBeVisible();
  await amy.getByRole('button', { name: /^People/ }).click();
  const bobInAmysList = amy.getByRole('region', { name: 'People' }).getByRole('listitem').filter({ hasText: 'Bob' });
  await expect(bobInAmysList.getByText('Moderator')).toBeVisible({ timeout: 15_000 });

  // Remove, after a confirmation: cancelling keeps Bob; confirming shows him the removed screen.
  await people.getByRole('button', { name: 'Remove Bob' }).click();
  const dialog = host.getByRole('dialog', { name: 'Remove Bob from the meeting?' });
  await expect(dialog).toBeVisible();
  await screenshots(host, testInfo, 'remove-confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(bob.locator('.lk-room-container')).toBeVisible();
  await people.getByRole('button', { name: 'Remove Bob' }).click();
  await dialog.getByRole('button', { name: 'Remove Bob' }).click();
  await expect(bob.getByTestId('error-removed')).toBeVisible({ timeout: 15_000 });
  await expect(host.getByRole('button', { name: 'People (2)' })).toBeVisible({ timeout: 15_000 });

  // An attendee's Leave leaves; the host's asks whether to end the meeting for everyone, then confirms.
  await expect(amy.getByRole('button', { name: 'End meeting for everyone' })).toHaveCount(0);
  await host.getByRole('button', { name: 'Leave', exact: true }).click();
  await host
    .getByRole('dialog', { name: 'Leave the meeting?' })
    .getByRole('button', { name: 'End meeting for everyone' })
    .click();
  const end = host.getByRole('dialog', { name: 'End the meeting for everyone?' });
  await expect(end).toBeVisible();
  await end.getByRole('button', { name: 'End meeting' }).click();
  await expect(amy.getByTestId('error-ended')).toBeVisible({ timeout: 15_000 });
  await expect(host.getByTestId('error-ended')).toBeVisible({ timeout: 15_000 });
  // The media room goes first (everyone sees the end), then our record: poll for it.
  await expect.poll(async () => (await api('GET', `/api/v1/rooms/${roomId}`)).body.status).toBe('ENDED');
  for (const p of [host, amy, bob]) await p.context().close();
});

test('a host moves someone to an open breakout: they leave the main call', async ({ browser }) => {
  const room = await api('POST', '/api/v1/rooms', { name: 'Breakouts', createdByExternalId: 'hana' });
  const [host, amy] = [await person(browser), await person(browser)];
  await enter(host, await joinUrl(room.body.id, 'Hana', 'HOST'));
  await enter(amy, await joinUrl(room.body.id, 'Amy'));
  await expectRemoteVideoAdvancing(host);
  const breakout = await api('POST', `/api/v1/rooms/${room.body.id}/breakouts`, {
    name: 'Table 1',
    createdByExternalId: 'hana',
  });
  expect(breakout.status).toBe(201);
  await host.getByRole('button', { name: 'People (2)' }).click();
  const people = host.getByRole('region', { name: 'People' });
  // Opening a person's actions re-reads the roster: the breakout opened after everyone came.
  await people.getByRole('button', { name: 'Actions for Amy' }).click();
  await people.getByRole('button', { name: 'Move to Table 1 Amy' }).click({ timeout: 15_000 });
  await expect(host.getByRole('button', { name: 'People (1)' })).toBeVisible({ timeout: 15_000 });
  // Her record follows the media layer's webhooks (left the main room, joined the breakout): poll for it.
  const amyBreakout = async () =>
    (await api('GET', `/api/v1/rooms/${room.body.id}/participants?connectionState=CONNECTED`)).body.data.find(
      (p: { displayName: string }) => p.displayName === 'Amy',
    )?.breakoutId;
  await expect.poll(amyBreakout, { timeout: 10_000 }).toBe(breakout.body.id);
  for (const p of [host, amy]) await p.context().close();
});

test('a knocking guest: the host gets a toast with Admit inline, and the guest comes in', async ({
  browser,
}, testInfo) => {
  const room = await api('POST', '/api/v1/rooms', {
    name: 'Knock',
    createdByExternalId: 'hana',
    enableWaitingRoom: true,
  });
  const [host, amy] = [await person(browser), await person(browser)];
  await enter(host, await joinUrl(room.body.id, 'Hana', 'HOST'));
  const parked = await api('POST', `/api/v1/rooms/${room.body.id}/join`, { externalUserId: 'amy', displayName: 'Amy' });
  await amy.goto(parked.body.admissionUrl);
  await expect(amy.getByTestId('waiting-waiting')).toBeVisible();
  // The toast comes while the host controls are closed; the toggle counts who waits.
  const toast = host.locator('[data-sonner-toast]').filter({ hasText: 'Amy is waiting to join' });
  await expect(toast).toBeVisible({ timeout: 20_000 });
  await expect(host.getByRole('button', { name: 'Host controls (1 waiting)' })).toBeVisible();
  await screenshots(host, testInfo, 'knock-toast');
  await toast.getByRole('button', { name: 'Admit' }).click();
  await expect(toast).toBeHidden();
  await amy.getByRole('button', { name: 'Join meeting' }).click({ timeout: 20_000 });
  await expectRemoteVideoAdvancing(host);
  for (const p of [host, amy]) await p.context().close();
});
