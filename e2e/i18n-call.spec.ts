import { test, expect, type Page } from '@playwright/test';
import { en } from '../lib/i18n/en';
import { messagesFor } from '../lib/i18n/messages';
import type { Language } from '../lib/i18n/languages';
import { startLiveApp, type LiveApp } from './support/live-app';
import { eachCallPanel } from './support/call';

/**
 * Every word of the call view in the page's language: for de, es and fr a host goes through the
 * pre-join into a real call (development media server) and opens each panel; every visible text,
 * accessible name and placeholder is compared with the English texts — LiveKit's built-in ones
 * (its control bar, tiles and toasts) and ours. One equal to an English text that the language
 * translates differently fails the test, and <html lang> must be the page's language.
 */
let live: LiveApp;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  live = await startLiveApp();
});
test.afterAll(async () => {
  await live?.close();
});

/** Every text a dictionary can produce: strings, and functions called with a few typical arguments. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function')
    return [0, 1, 2, 3].flatMap((n) => {
      try {
        return [String(value(n, n, n)), String(value('Ada', n, n)), String(value('Grace', n, n))];
      } catch {
        return [];
      }
    });
  if (typeof value === 'object' && value) return Object.values(value).flatMap(texts);
  return [];
}

/** What LiveKit's components say in English on their own (components-react 3.0). */
const LIVEKIT_ENGLISH = [
  'Microphone',
  'Camera',
  'Share screen',
  'Stop screen share',
  'Chat',
  'Settings',
  'Leave',
  'Start Audio',
  'Start Video',
  'Allow Audio',
  'Messages',
  'Send',
  'Enter a message...',
  'Connecting',
  'Reconnecting',
  'Disconnected',
  "'s screen",
  'Audio inputs',
  'Video inputs',
];

/** English texts that would be wrong on a page in lang: English's, unless the language says the same. */
function englishOnly(lang: Language): Set<string> {
  const own = new Set(texts(messagesFor(lang)).map((s) => s.trim()));
  return new Set([...texts(en), ...LIVEKIT_ENGLISH].map((s) => s.trim()).filter((s) => s && !own.has(s)));
}

/** The visible texts, accessible names, placeholders and titles on the page. */
function shownTexts(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && node.parentElement?.checkVisibility()) found.push(text);
    }
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
      if (!el.checkVisibility()) continue;
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = el.getAttribute(attr)?.trim();
        if (value) found.push(value);
      }
    }
    found.push(document.title);
    return found;
  });
}

async function expectNoEnglish(page: Page, lang: Language, where: string) {
  const english = englishOnly(lang);
  const leftovers = [...new Set((await shownTexts(page)).filter((s) => english.has(s)))];
  expect(leftovers, `English on the ${lang} ${where}`).toEqual([]);
}

for (const lang of ['de', 'es', 'fr'] as const) {
  test(`the call view in ${lang} has no English left`, async ({ browser }) => {
    test.setTimeout(90_000);
    const t = messagesFor(lang);
    const { joinUrls } = await live.room([{ id: 'host', name: 'Ada', role: 'HOST', lang }]);
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const page = await context.newPage();
    await page.goto(joinUrls[0]);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByTestId('joining-as')).toHaveText(t.joiningAs('Ada'));
    await expectNoEnglish(page, lang, 'pre-join');

    await page.getByRole('button', { name: t.join }).click();
    const bar = page.getByRole('toolbar', { name: t.controls.bar });
    await expect(bar).toBeVisible({ timeout: 30_000 });
    await expect(bar.getByRole('button', { name: t.microphone, exact: true })).toBeVisible();
    await expect(bar.getByRole('button', { name: t.controls.leave, exact: true })).toBeVisible();
    // The host controls appear once GET /api/v1/me has answered.
    await expect(page.getByRole('button', { name: t.panels.hostToggle(0) })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('.lk-participant-tile video')).toBeVisible();
    await expectNoEnglish(page, lang, 'call');

    await eachCallPanel(page, t, (toggle) => expectNoEnglish(page, lang, `call with "${toggle}" open`));
    await context.close();
  });
}
