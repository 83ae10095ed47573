import { test, expect, type Browser, type Page } from '@playwright/test';
import { messagesFor } from '../lib/i18n/messages';
import { LANGUAGES } from '../lib/i18n/languages';
import { expectRemoteVideoAdvancing } from './support/call';
import { createTenant, type TenantApi } from './support/tenant';
import { keepScreenshot, wordProblems, type WordProblem } from './support/words';

/**
 * No word of the call breaks inside itself or is cut off, in any of its four languages, at a desk
 * (1440 × 900) and on a phone (390 × 844) — issue 45 item 10 ("Admi/t", "Den/y",
 * "Weichzeichnen"). A host with a guest waiting and two attendees in the room goes through every
 * screen: the pre-join, the call, each panel (host controls with the waiting guest, a person's
 * actions, a raised hand in the queue, settings with the backgrounds), the More menu, the Leave
 * dialog; each is measured (support/words.ts: each word's line boxes, each control's width).
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Words', { plan: 'growth' });
});
test.describe.configure({ timeout: 420_000 });

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

async function personAt(browser: Browser) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'], viewport: SIZES[0] });
  return context.newPage();
}

/** Measures the page now and adds what is wrong, named by the screen. */
async function measure(page: Page, screen: string, into: string[]) {
  // Let a resize settle (the control bar folds after measuring itself).
  await page.waitForTimeout(400);
  const found: WordProblem[] = await wordProblems(page);
  for (const p of found) into.push(`${screen}: ${p.kind} "${p.text}" in ${p.where}`);
}

for (const lang of LANGUAGES) {
  test(`every screen of the call in ${lang}: no word broken or cut, at a desk and on a phone`, async ({
    browser,
  }, testInfo) => {
    const t = messagesFor(lang);
    const problems: string[] = [];
    const roomId = await tenant.room({ name: 'Weekly sync', enableWaitingRoom: true, enableRecording: true });
    const join = async (name: string, role = 'ATTENDEE') => {
      const res = await tenant.api('POST', `/api/v1/rooms/${roomId}/join`, {
        externalUserId: name.toLowerCase(),
        displayName: name,
        role,
        lang,
      });
      expect(res.status).toBe(200);
      return res.body as { joinUrl: string | null; admissionUrl: string | null };
    };
    const [host, amy] = [await personAt(browser), await personAt(browser)];
    await host.goto((await join('Hana', 'HOST')).joinUrl!);
    for (const size of SIZES) {
      await host.setViewportSize(size);
      await measure(host, `pre-join ${size.width}`, problems);
    }
    await host.setViewportSize(SIZES[0]);
    await host.getByRole('button', { name: t.join }).click();
    // A moderator, so the waiting room lets her straight in.
    await amy.goto((await join('Amy', 'MODERATOR')).joinUrl!);
    await amy.getByRole('button', { name: t.join }).click();
    await expectRemoteVideoAdvancing(host);
    // A guest waits (the host's panel lists them with Admit and Deny); Amy raises her hand.
    const guest = await join('Maximilian');
    expect(guest.admissionUrl).toBeTruthy();
    await amy.getByRole('button', { name: t.hands.raise }).click();
    await expect(host.getByRole('button', { name: t.panels.hostToggle(1) })).toBeVisible({ timeout: 20_000 });

    for (const size of SIZES) {
      await host.setViewportSize(size);
      const at = `${size.width}`;
      await measure(host, `call ${at}`, problems);
      await keepScreenshot(host, testInfo, `words-${lang}-call-${at}`);
      const tools = host.getByRole('group', { name: t.panels.toolbar });
      for (const button of await tools.getByRole('button').all()) {
        await button.click();
        const panel = host.locator('section[id^="convene-panel-"]:not([hidden])');
        await expect(panel).toBeVisible();
        await expect(panel.getByText(t.panels.loading)).toHaveCount(0, { timeout: 15_000 });
        const id = (await panel.getAttribute('id'))!.replace('convene-panel-', '');
        if (id === 'people') {
          // The host's actions for Amy, and the raised-hand queue above the list.
          // Open unless still open from the other size (a panel keeps its state while closed).
          const toggle = panel.getByRole('button', { name: t.hostActions.toggle('Amy') });
          if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
          await expect(panel.getByRole('group', { name: t.hostActions.toggle('Amy') })).toBeVisible({
            timeout: 15_000,
          });
          await expect(panel.getByRole('list', { name: t.hands.queue })).toBeVisible();
        }
        if (id === 'host') await expect(panel.getByRole('list', { name: t.host.waiting })).toBeVisible();
        await measure(host, `${id} panel ${at}`, problems);
        await keepScreenshot(host, testInfo, `words-${lang}-${id}-${at}`);
        await panel.getByRole('button', { name: t.panels.close }).click();
      }
      // Settings (backgrounds: "Abenddämmerung", "Weichzeichnen") from the bar or its More menu.
      const bar = host.getByRole('toolbar', { name: t.controls.bar });
      const settings = bar.getByRole('button', { name: t.controls.settings, exact: true });
      const more = bar.getByRole('button', { name: t.stage.more });
      if (!(await settings.isVisible())) {
        await more.click();
        await measure(host, `more menu ${at}`, problems);
        await keepScreenshot(host, testInfo, `words-${lang}-more-${at}`);
      }
      await settings.click();
      const sheet = host.getByRole('region', { name: t.settings.title });
      await expect(sheet.getByTestId('background-picker')).toBeVisible({ timeout: 20_000 });
      await measure(host, `settings ${at}`, problems);
      await keepScreenshot(host, testInfo, `words-${lang}-settings-${at}`);
      await sheet.getByRole('button', { name: t.panels.close }).click();
      // The host's Leave dialog.
      await bar.getByRole('button', { name: t.controls.leave, exact: true }).click();
      const leave = host.getByRole('dialog', { name: t.leave.title });
      await expect(leave).toBeVisible();
      await measure(host, `leave dialog ${at}`, problems);
      await keepScreenshot(host, testInfo, `words-${lang}-leave-${at}`);
      await leave.getByRole('button', { name: t.hostActions.cancel }).click();
    }

    // The ended screen with its rating, at both sizes.
    await host.getByRole('button', { name: t.controls.leave, exact: true }).click();
    await host.getByRole('button', { name: t.hostActions.endForAll }).click();
    await host
      .getByRole('dialog', { name: t.hostActions.confirmEnd })
      .getByRole('button', { name: t.hostActions.end })
      .click();
    await expect(host.getByTestId('error-ended')).toBeVisible({ timeout: 20_000 });
    for (const size of SIZES) {
      await host.setViewportSize(size);
      await measure(host, `ended ${size.width}`, problems);
    }
    expect(problems, problems.join('\n')).toEqual([]);
    for (const p of [host, amy]) await p.context().close();
  });
}
