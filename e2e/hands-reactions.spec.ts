import { test, expect, type Page } from '@playwright/test';
import { createTenant, type TenantApi } from './support/tenant';
import { hostWithTwo, screenshots } from './support/call';

/**
 * Raised hands and emoji reactions in a real call on the development media server: the hand goes
 * up through the API and shows on the tile and in the host's queue in the other browsers; a host
 * lowers it; a reaction shows on the sender's tile in the other browser for a few seconds.
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Hands');
});

/** The remote tile of `name` (its camera, not a shared screen). */
const tileOf = (page: Page, name: string) =>
  page.locator('.lk-participant-tile[data-lk-local-participant="false"]').filter({ hasText: name }).first();

test.describe.configure({ timeout: 150_000 });

test('hands go up in order, everyone sees them, a host lowers one; a reaction shows on the sender’s tile', async ({
  browser,
}, testInfo) => {
  const { host, amy, bob } = await hostWithTwo(browser, tenant);

  // Bob then Amy raise their hands.
  await bob.getByRole('button', { name: 'Raise hand' }).click();
  await expect(bob.getByRole('button', { name: 'Lower hand' })).toHaveAttribute('aria-pressed', 'true');
  await amy.getByRole('button', { name: 'Raise hand' }).click();
  await expect(tileOf(amy, 'Bob').getByRole('img', { name: 'Hand raised' })).toBeVisible({ timeout: 15_000 });

  // The host's queue, first raised first.
  await host.getByRole('button', { name: /^People \(/ }).click();
  const queue = host.getByRole('list', { name: 'Raised hands' });
  await expect(queue.getByRole('listitem')).toHaveText([/1\. Bob/, /2\. Amy/], { timeout: 15_000 });
  await screenshots(host, testInfo, 'raised-hands-queue');

  // The host lowers Bob's hand: Bob's button says so, Amy no longer sees it on his tile.
  await queue.getByRole('button', { name: 'Lower Bob’s hand' }).click();
  await expect(bob.getByRole('button', { name: 'Raise hand' })).toHaveAttribute('aria-pressed', 'false', {
    timeout: 15_000,
  });
  await expect(tileOf(amy, 'Bob').getByRole('img', { name: 'Hand raised' })).toHaveCount(0);
  await expect(queue.getByRole('listitem')).toHaveText([/1\. Amy/]);
  // Amy lowers her own.
  await amy.getByRole('button', { name: 'Lower hand' }).click();
  await expect(queue).toHaveCount(0, { timeout: 15_000 });

  // A reaction from Amy shows on her tile in Bob's call, then goes.
  await amy.getByRole('button', { name: 'Reactions' }).click();
  await amy.getByRole('button', { name: 'React with 🎉' }).click();
  const reaction = tileOf(bob, 'Amy').getByRole('img', { name: 'Amy reacted 🎉' });
  await expect(reaction).toBeVisible({ timeout: 10_000 });
  // And large, floating up the stage with her name: at least 48 px high.
  const floating = bob
    .locator('.convene-floating-reaction')
    .filter({ hasText: 'Amy' })
    .locator('.convene-floating-emoji');
  await expect(floating).toHaveText('🎉');
  // It grows in over its first half second, then floats up at full size.
  await expect
    .poll(async () => (await floating.boundingBox())?.height ?? 0, { timeout: 3000 })
    .toBeGreaterThanOrEqual(48);
  await screenshots(bob, testInfo, 'reaction-on-tile');
  await expect(reaction).toHaveCount(0, { timeout: 10_000 });
  for (const p of [host, amy, bob]) await p.context().close();
});
