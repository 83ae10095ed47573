/**
 * A second browser engine in the call specs: Debian's Firefox ESR, driven over WebDriver BiDi by
 * puppeteer-core (Playwright's Firefox is a patched build it downloads, which cannot work here).
 * Fake camera (a changing solid colour) and microphone (a tone) by preference; media plays without
 * a gesture. What the Chromium specs read off a call is read with the same page functions
 * (e2e/support/call.ts: painted frames, as Firefox counts a MediaStream's, and a WebAudio peak), the
 * measured tab brought to the front first.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Page as ChromiumPage } from '@playwright/test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Messages } from '../../lib/i18n/messages';
import { audioPeak, framesByTrack, REMOTE_CAMERA_VIDEOS } from './call';

export type FirefoxPage = Page;

/**
 * Headless, or with a window on the X display `display` (startXvfb): headless Firefox has no
 * screen, so getDisplayMedia answers NotFoundError; with a window it captures that display.
 */
export function launchFirefox({ display }: { display?: string } = {}): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    headless: !display,
    ...(display && { env: { ...process.env, DISPLAY: display } }),
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      'media.autoplay.default': 0,
      'media.autoplay.blocking_policy': 0,
      // With no sound device an AudioContext never starts; the mock audio backend runs it (and WebAudio measures).
      'media.cubeb.force_mock_context': true,
    },
  });
}

/**
 * A virtual X display of its own (Debian's Xvfb, 1280×720), for a Firefox with a window: the
 * screen a test shares. Xvfb picks a free display number and writes it to the descriptor given.
 */
export async function startXvfb(): Promise<{ display: string; stop: () => void }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x720x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  xvfb.stderr?.on('data', (chunk) => (stderr += chunk));
  const number = await new Promise<string>((resolve, reject) => {
    let out = '';
    (xvfb.stdio[3] as Readable).on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${stderr.trim()}`)));
  });
  return { display: `:${number}`, stop: () => xvfb.kill() };
}

/** What went wrong on a page: uncaught errors, console errors and CSP violations, as text. */
export type Problems = string[];

/**
 * Content-Security-Policy violations the page reports (`securitypolicyviolation`, with the
 * directive, the blocked thing and where), pushed to `window.cspViolations` from the first script on.
 */
function recordCspViolations() {
  const w = window as unknown as { cspViolations: string[] };
  w.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    w.cspViolations.push(
      `CSP ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
    ),
  );
}

const readCspViolations = (page: { evaluate: Page['evaluate'] }) =>
  page
    .evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])
    .catch(() => [] as string[]);

/** A person in Firefox: a private browsing context of its own (own storage, own devices). */
export async function firefoxPerson(firefox: Browser) {
  const context = await firefox.createBrowserContext();
  const page = await context.newPage();
  const problems: Problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${(err as Error).message ?? err}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  await page.evaluateOnNewDocument(recordCspViolations);
  return {
    page,
    /** Everything that went wrong so far, CSP violations included (read from the page now). */
    async problems() {
      return [...problems, ...(await readCspViolations(page))];
    },
    close: () => context.close(),
  };
}

/** Collects the same problems on a Chromium page (call before its first navigation). */
export async function watchChromiumProblems(page: ChromiumPage) {
  const problems: Problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  await page.addInitScript(recordCspViolations);
  return async () => [...problems, ...(await readCspViolations(page))];
}

/** Clicks the (first visible) button named `name` in the page. */
export async function clickButton(page: Page, name: string) {
  await page.click(`::-p-aria([name="${name}"][role="button"])`);
}

/** Joins from the pre-join screen (camera and microphone on, as the pre-join starts them). */
export async function enterInFirefox(page: Page, joinUrl: string) {
  await page.goto(joinUrl);
  await page.waitForSelector('.lk-prejoin video', { timeout: 30_000 });
  await clickButton(page, 'Join meeting');
  await page.waitForSelector('.lk-room-container', { timeout: 30_000 });
}

/** Painted frames of each video `selector` picks (remote camera tiles by default), by track id. */
export async function firefoxRemoteVideoFrames(page: Page, selector = REMOTE_CAMERA_VIDEOS) {
  // Firefox paints only the tab in front (each person is a tab of one window).
  await page.bringToFront();
  return page.evaluate(framesByTrack, selector);
}

/** The loudest level on the page's remote audio elements (those `selector` picks), as in call.ts. */
export function firefoxRemoteAudioLevel(page: Page, selector = 'audio') {
  return page.evaluate(audioPeak, selector);
}

/**
 * Clicks `selector` from inside the page. A WebDriver click on the call's controls did not return
 * in headless Firefox (input.performActions hung until the test's end), so the controls past the
 * pre-join are clicked as the page's own script would.
 */
export async function clickInPage(page: Page, selector: string) {
  await page.waitForSelector(selector, { visible: true });
  await page.$eval(selector, (el) => (el as HTMLElement).click());
}

/**
 * Opens each of the call's panels in turn as a host sees them (host controls, people, polls, Q&A,
 * chat), waits until it has loaded (no loading line left), and closes it again — eachCallPanel in
 * call.ts, the Firefox way. `t`: the call's texts (its loading line, the close button's name).
 */
export async function eachCallPanelInFirefox(page: Page, t: Messages) {
  const panel = 'section[id^="convene-panel-"]:not([hidden])';
  for (const key of ['host', 'people', 'polls', 'questions', 'chat']) {
    await clickInPage(page, `button[aria-controls="convene-panel-${key}"]`);
    await page.waitForSelector(panel, { visible: true });
    await page.waitForFunction(
      (panel, loading) => !document.querySelector(panel)?.textContent?.includes(loading),
      { timeout: 15_000 },
      panel,
      t.panels.loading,
    );
    await clickInPage(page, `${panel} button[aria-label="${t.panels.close}"]`);
    await page.waitForSelector(panel, { hidden: true });
  }
}

/** Leaves the call with its Leave button (a host is asked first: Leave meeting); resolves once the page says so. */
export async function leaveInFirefox(page: Page, t: Messages) {
  await clickInPage(page, `button[aria-label="${t.controls.leave}"]`);
  await page.waitForFunction(() => !!document.querySelector('[data-testid="error-left"], dialog[open]'), {
    timeout: 15_000,
  });
  await page.evaluate(
    (label) =>
      [...document.querySelectorAll<HTMLButtonElement>('dialog[open] button')]
        .find((b) => b.textContent?.trim() === label)
        ?.click(),
    t.leave.leave,
  );
  await page.waitForSelector('[data-testid="error-left"]', { timeout: 15_000 });
}
