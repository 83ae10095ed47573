import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { startLiveApp, type LiveApp } from './support/live-app';
import { enter, expectRemoteVideoAdvancing, person, screenshots } from './support/call';

/**
 * In-call settings in a real call on the development media server: Settings lists the browser's
 * cameras, microphones and speakers; noise suppression (RNNoise) loads only when turned on, its
 * WebAssembly from our own origin (/call-assets), never a CDN, and turns off again.
 */
let live: LiveApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  live = await startLiveApp();
});
test.afterAll(async () => {
  await live?.close();
});

test('settings list the devices; noise suppression loads on demand from our origin', async ({ browser }) => {
  test.setTimeout(90_000);
  const { joinUrls } = await live.room([{ id: 'host', name: 'Ada', role: 'HOST' }]);
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const assets = () => requests.filter((u) => u.includes('/call-assets/')).map((u) => new URL(u).pathname);

  await page.goto(joinUrls[0]);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-participant-tile[data-lk-local-participant="true"] video')).toBeVisible({
    timeout: 30_000,
  });

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  await expect(settings.getByRole('group', { name: 'Camera' })).toContainText('fake_device_0');
  await expect(settings.getByRole('group', { name: 'Microphone' })).toContainText('Fake Audio Input 1');
  await expect(settings.getByRole('group', { name: 'Speaker' })).toContainText('Fake Audio Output 1');
  expect(assets(), 'nothing of RNNoise before it is turned on').toEqual([]);

  const noise = settings.getByRole('checkbox', { name: 'Noise suppression' });
  // The box shows the state once the processor runs (it is not ticked before).
  await noise.click();
  await expect(noise).toBeChecked({ timeout: 15_000 });
  await expect(settings.getByRole('status')).toHaveText('');
  expect(assets()).toEqual(['/call-assets/rnnoise.wasm']);
  // Only this machine: the app and the media server (no CDN).
  const elsewhere = requests.filter((u) => u.startsWith('http') && new URL(u).hostname !== '127.0.0.1');
  expect(elsewhere, 'no request leaves this machine').toEqual([]);

  await noise.click();
  await expect(noise).not.toBeChecked({ timeout: 15_000 });
  await context.close();
});

/**
 * What a camera frame looks like, measured in the page on a 320×240 copy: `edges` is the mean
 * difference between neighbouring pixels in the top band (where the fake camera draws its sharp
 * frame counter; a blurred background has almost none), `corner` the mean colour of the top-left
 * corner (background there: a virtual background replaces it). The median of five frames.
 */
function frameStats(page: Page, selector: string) {
  return page.evaluate(async (selector) => {
    const video = document.querySelector<HTMLVideoElement>(selector);
    if (!video || video.videoWidth === 0) return null;
    const canvas = new OffscreenCanvas(320, 240);
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    const samples: { edges: number; corner: [number, number, number] }[] = [];
    for (let n = 0; n < 5; n++) {
      ctx.drawImage(video, 0, 0, 320, 240);
      const { data } = ctx.getImageData(0, 0, 320, 240);
      let edges = 0;
      for (let y = 0; y < 60; y++)
        for (let x = 0; x < 319; x++) {
          const i = (y * 320 + x) * 4;
          for (let c = 0; c < 3; c++) edges += Math.abs(data[i + c] - data[i + 4 + c]);
        }
      const corner: [number, number, number] = [0, 0, 0];
      for (let y = 0; y < 30; y++)
        for (let x = 0; x < 40; x++) for (let c = 0; c < 3; c++) corner[c] += data[(y * 320 + x) * 4 + c] / 1200;
      samples.push({ edges: edges / (60 * 319), corner });
      await new Promise((r) => setTimeout(r, 150));
    }
    samples.sort((a, b) => a.edges - b.edges);
    return samples[2];
  }, selector);
}

const LOCAL_VIDEO = '.lk-participant-tile[data-lk-local-participant="true"] video';
const REMOTE_VIDEO = '.lk-participant-tile[data-lk-local-participant="false"] video';

test('background blur and a virtual background are what is sent; None sends the raw camera again', async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const { joinUrls } = await live.room([
    { id: 'ada', name: 'Ada', role: 'HOST' },
    { id: 'bob', name: 'Bob' },
  ]);
  const ada = await person(browser);
  const bob = await person(browser);
  const requests: string[] = [];
  ada.on('request', (r) => requests.push(r.url()));
  const assets = () => requests.filter((u) => u.includes('/call-assets/')).map((u) => new URL(u).pathname);
  await enter(ada, joinUrls[0]);
  await enter(bob, joinUrls[1]);
  await expectRemoteVideoAdvancing(bob);

  const edges = async (page: Page, selector: string) => (await frameStats(page, selector))?.edges ?? -1;
  const raw = { local: await edges(ada, LOCAL_VIDEO), remote: await edges(bob, REMOTE_VIDEO) };
  expect(raw.remote, 'the raw camera has sharp detail').toBeGreaterThan(1);
  const measured: Record<string, number> = { rawLocal: raw.local, rawRemote: raw.remote };

  await ada.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = ada.getByRole('region', { name: 'Settings' });
  const backgrounds = settings.getByRole('group', { name: 'Background' });
  await expect(backgrounds.getByRole('radio', { name: 'None' })).toBeChecked();
  expect(assets(), 'nothing of the background processor before it is chosen').toEqual([]);

  await backgrounds.getByText('Blur', { exact: true }).click(); // the swatch's label, as a person clicks it
  await expect(backgrounds.getByRole('radio', { name: 'Blur' })).toBeChecked({ timeout: 60_000 });
  await expect(settings.getByRole('status')).toHaveText('');
  // Blurred: the sharp detail is mostly gone, in Ada's own view and in what Bob receives.
  await expect.poll(() => edges(ada, LOCAL_VIDEO), { timeout: 60_000 }).toBeLessThan(raw.local * 0.5);
  await expect.poll(() => edges(bob, REMOTE_VIDEO), { timeout: 60_000 }).toBeLessThan(raw.remote * 0.5);
  measured.blurLocal = await edges(ada, LOCAL_VIDEO);
  measured.blurRemote = await edges(bob, REMOTE_VIDEO);
  expect(assets().sort()).toEqual([
    '/call-assets/selfie_segmentation_landscape.tflite',
    '/call-assets/vision_wasm_internal.js',
    '/call-assets/vision_wasm_internal.wasm',
  ]);

  // A built-in virtual background (a blue-green gradient we paint) replaces the green fake room.
  const corner = async () => (await frameStats(bob, REMOTE_VIDEO))?.corner ?? [0, 0, 0];
  const [r0, g0, b0] = await corner();
  expect(g0, 'the fake camera’s background is green').toBeGreaterThan(b0 + 40);
  await backgrounds.getByText('Ocean', { exact: true }).click(); // the swatch's label, as a person clicks it
  await expect(backgrounds.getByRole('radio', { name: 'Ocean' })).toBeChecked({ timeout: 30_000 });
  await expect
    .poll(
      async () => {
        const [, g, b] = await corner();
        return b - g;
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(10);
  expect(r0).toBeLessThan(255);
  await screenshots(ada, testInfo, 'settings-virtual-background');

  await backgrounds.getByText('None', { exact: true }).click(); // the swatch's label, as a person clicks it
  await expect(backgrounds.getByRole('radio', { name: 'None' })).toBeChecked({ timeout: 30_000 });
  await expect.poll(() => edges(bob, REMOTE_VIDEO), { timeout: 60_000 }).toBeGreaterThan(raw.remote * 0.7);
  await expect
    .poll(
      async () => {
        const [, g, b] = await corner();
        return g - b;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(40);
  measured.noneRemote = await edges(bob, REMOTE_VIDEO);
  console.log(`top-band detail (mean neighbour difference): ${JSON.stringify(measured)}`);
  const elsewhere = requests.filter((u) => u.startsWith('http') && new URL(u).hostname !== '127.0.0.1');
  expect(elsewhere, 'no request leaves this machine').toEqual([]);
  await ada.context().close();
  await bob.context().close();
});

test('a tenant’s feature switches remove the controls; its own virtual backgrounds are offered', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const patch = await live.api('PATCH', '/api/v1/tenant/branding', {
    reactionsEnabled: false,
    noiseSuppressionEnabled: false,
    virtualBackgrounds: ['https://images.example/office.jpg', 'https://images.example/library.jpg'],
  });
  expect(patch.status, JSON.stringify(patch.body)).toBe(200);
  try {
    const first = await live.room([{ id: 'ada', name: 'Ada', role: 'HOST' }]);
    const ada = await person(browser);
    await enter(ada, first.joinUrls[0]);
    await expect(ada.getByRole('button', { name: 'Raise hand' })).toBeVisible();
    await expect(ada.getByRole('button', { name: 'Reactions' })).toHaveCount(0);
    await ada.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = ada.getByRole('region', { name: 'Settings' });
    const backgrounds = settings.getByRole('group', { name: 'Background' });
    await expect(backgrounds.getByRole('radio')).toHaveCount(2 + 3 + 2); // none, blur, 3 built-in, 2 of the tenant's
    await expect(backgrounds.getByRole('radio', { name: 'Image 2' })).toBeVisible();
    // The picker (a fieldset of labelled radios over swatches) passes axe's WCAG 2.1 AA rules.
    // (Scoped to it: LiveKit's device lists above it have findings of their own.)
    const { violations } = await new AxeBuilder({ page: ada })
      .include('[data-testid="background-picker"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await expect(settings.getByRole('checkbox', { name: 'Noise suppression' })).toHaveCount(0);
    // A tenant image that cannot be loaded (no such host here) is an error shown, not an empty background.
    await backgrounds.getByText('Image 1', { exact: true }).click();
    await expect(settings.getByRole('status')).toHaveText('That did not work. Try again.', { timeout: 30_000 });
    await expect(backgrounds.getByRole('radio', { name: 'None' })).toBeChecked();
    await ada.context().close();

    await live.api('PATCH', '/api/v1/tenant/branding', { backgroundsEnabled: false, raiseHandEnabled: false });
    const second = await live.room([{ id: 'bea', name: 'Bea', role: 'HOST' }]);
    const bea = await person(browser);
    await enter(bea, second.joinUrls[0]);
    await bea.getByRole('button', { name: 'Settings', exact: true }).click();
    const beaSettings = bea.getByRole('region', { name: 'Settings' });
    await expect(beaSettings.getByRole('group', { name: 'Camera' })).toBeVisible();
    await expect(beaSettings.getByRole('group', { name: 'Background' })).toHaveCount(0);
    await expect(bea.getByRole('button', { name: 'Raise hand' })).toHaveCount(0);
    await bea.context().close();
  } finally {
    await live.api('PATCH', '/api/v1/tenant/branding', {
      reactionsEnabled: null,
      raiseHandEnabled: null,
      backgroundsEnabled: null,
      noiseSuppressionEnabled: null,
      virtualBackgrounds: null,
    });
  }
});
