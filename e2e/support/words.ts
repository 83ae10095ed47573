/**
 * Whether the words on a page are whole, as a person reads them: no word broken across two lines
 * ("Admi/t"), and no control whose text is cut off (wider than its box). Measured in the page:
 * each visible text node's words (a hyphen or slash may end a line: "Schwarzenberg-/Hohenlohe")
 * through Range.getClientRects — a word whose boxes sit on two lines is broken — and each button,
 * link, label, heading and cell's scrollWidth against its clientWidth.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';

export interface WordProblem {
  kind: 'broken' | 'cut';
  text: string;
  /** The element, as a short selector-like path (tag, classes, test id, name). */
  where: string;
}

/** Every broken word and cut-off control inside `root` that is visible now. */
export function wordProblems(page: Page, root = 'body'): Promise<WordProblem[]> {
  return page.evaluate((rootSelector) => {
    const scope = document.querySelector(rootSelector);
    if (!scope) return [];
    const problems: { kind: 'broken' | 'cut'; text: string; where: string }[] = [];
    // Visually hidden text (a name for screen readers only) is not read by the eye.
    const hidden = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.position === 'absolute' && (s.clipPath === 'inset(50%)' || s.clip.startsWith('rect(0'))) return true;
        if (e.getAttribute('aria-hidden') === 'true' && e.closest('svg')) return true;
      }
      return !el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    };
    const where = (el: Element) => {
      const parts: string[] = [];
      for (let e: Element | null = el; e && parts.length < 3; e = e.parentElement) {
        const id = e.getAttribute('data-testid') ?? e.getAttribute('aria-label') ?? e.id;
        parts.unshift(
          `${e.tagName.toLowerCase()}${e.classList.length ? `.${[...e.classList].slice(0, 2).join('.')}` : ''}${id ? `[${id}]` : ''}`,
        );
      }
      return parts.join(' > ');
    };
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode as Text;
      const el = node.parentElement;
      const text = node.textContent ?? '';
      if (!el || !text.trim() || el.closest('script, style, noscript, svg') || hidden(el)) continue;
      for (const m of text.matchAll(/[^\s\-‐/]+/g)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, m.index ?? 0);
        range.setEnd(node, (m.index ?? 0) + m[0].length);
        // The word's boxes by line: a box more than 4 px below the previous one is on the next line.
        const bottoms = [...range.getClientRects()]
          .filter((r) => r.width > 0 && r.height > 0)
          .map((r) => r.bottom)
          .sort((a, b) => a - b);
        const lines = bottoms.filter((b, i) => i === 0 || b - bottoms[i - 1] > 4).length;
        if (lines > 1) problems.push({ kind: 'broken', text: m[0], where: where(el) });
      }
    }
    for (const el of scope.querySelectorAll('button, a, label, h1, h2, h3, th, td, [role="img"], .convene-chip')) {
      if (hidden(el) || el.clientWidth === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        problems.push({ kind: 'cut', text: (el.textContent ?? '').trim().slice(0, 60), where: where(el) });
    }
    return problems;
  }, root);
}

/** The page at a size, attached to the test as `name` (and kept in test-results/screens for a reviewer). */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot();
  await testInfo.attach(name, { body, contentType: 'image/png' });
  mkdirSync('test-results/screens', { recursive: true });
  writeFileSync(`test-results/screens/${name}.png`, body);
}
