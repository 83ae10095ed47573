/** A person in a real call, as the call specs measure it: frames decoded, audio heard. */
import { expect, type Browser, type Page } from '@playwright/test';

/** A person in their own browser context (own fake devices, own storage). */
export async function person(browser: Browser) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  return context.newPage();
}

export async function enter(page: Page, joinUrl: string) {
  await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-room-container')).toBeVisible();
}

/** Frames the browser has decoded for each remote participant's camera tile. */
export function remoteVideoFrames(page: Page) {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLVideoElement>('.lk-participant-tile[data-lk-local-participant="false"] video'),
    ].map((v) => v.getVideoPlaybackQuality().totalVideoFrames),
  );
}

/** Waits until every remote camera tile shows video whose frame count keeps advancing. */
export async function expectRemoteVideoAdvancing(page: Page, tiles = 1) {
  await expect
    .poll(async () => (await remoteVideoFrames(page)).filter((n) => n > 10).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(tiles);
  const before = await remoteVideoFrames(page);
  // Advancing, not one frozen frame: each tile decodes more frames a little later.
  await expect
    .poll(async () => (await remoteVideoFrames(page)).filter((n, i) => n > (before[i] ?? 0) + 5).length, {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(tiles);
}

/** The loudest level heard on the remote audio elements over about two seconds (0 = silence). */
export function remoteAudioLevel(page: Page) {
  return page.evaluate(async () => {
    const streams = [...document.querySelectorAll('audio')]
      .map((a) => a.srcObject)
      .filter((s): s is MediaStream => s instanceof MediaStream && s.getAudioTracks().length > 0);
    if (!streams.length) return 0;
    const ctx = new AudioContext();
    await ctx.resume();
    const analysers = streams.map((s) => {
      const analyser = ctx.createAnalyser();
      ctx.createMediaStreamSource(s).connect(analyser);
      return analyser;
    });
    let peak = 0;
    const samples = new Float32Array(2048);
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100));
      for (const a of analysers) {
        a.getFloatTimeDomainData(samples);
        for (const v of samples) peak = Math.max(peak, Math.abs(v));
      }
    }
    await ctx.close();
    return peak;
  });
}
