import { test, expect, type Page } from '@playwright/test';
import http from 'node:http';
import type net from 'node:net';

/**
 * Iframe embedding in the browser: the hosted call UI renders inside a page from an origin its
 * tenant allows, and Chromium refuses to render it inside a page from any other origin
 * (Content-Security-Policy frame-ancestors, set per participant by proxy.ts). Runs against the
 * console suite's server (global setup), which has a database.
 */
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { providerKey: string };

/** A page that frames src, as an integrator's app would (with the documented `allow`). */
async function embeddingSite(): Promise<{ origin: string; frame: (src: string) => string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.setHeader('content-type', 'text/html');
    res.end(
      `<!doctype html><title>LMS</title><h1>Course room</h1><iframe title="meeting" src="${src.replace(/"/g, '&quot;')}" allow="camera; microphone; display-capture; autoplay; clipboard-write; fullscreen" width="900" height="600"></iframe>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { origin, frame: (src) => `${origin}/?src=${encodeURIComponent(src)}`, close: () => server.close() };
}

async function framedPage(page: Page, url: string) {
  const refused: string[] = [];
  page.on('console', (m) => m.text().includes('frame-ancestors') && refused.push(m.text()));
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Course room' })).toBeVisible();
  return refused;
}

test('the call UI renders in an iframe only on origins its tenant allows', async ({ page, request }) => {
  const base = process.env.CONSOLE_BASE_URL!;
  const allowed = await embeddingSite();
  const other = await embeddingSite();
  try {
    const provisioned = await request.post(`${base}/api/v1/provider/tenants`, {
      headers: { 'x-provider-key': seed.providerKey },
      data: { name: 'Embedding Co', frameAncestors: [allowed.origin] },
    });
    expect(provisioned.status()).toBe(201);
    const headers = { 'x-api-key': (await provisioned.json()).apiKey.plainTextKey };
    const room = await (
      await request.post(`${base}/api/v1/rooms`, {
        headers,
        data: { createdByExternalId: 'teacher', name: 'Physics 101' },
      })
    ).json();
    const join = await (
      await request.post(`${base}/api/v1/rooms/${room.id}/join`, {
        headers,
        data: { externalUserId: 'ada', displayName: 'Ada Lovelace' },
      })
    ).json();
    const joinUrl = `${base}/join?token=${encodeURIComponent(join.token)}&url=${encodeURIComponent('ws://127.0.0.1:1')}`;

    // Allowed origin: the pre-join renders inside the frame.
    expect(await framedPage(page, allowed.frame(joinUrl))).toEqual([]);
    const meeting = page.frameLocator('iframe[title="meeting"]');
    await expect(meeting.getByTestId('joining-as')).toHaveText('Joining as Ada Lovelace');
    await expect(meeting.getByRole('button', { name: 'Join meeting' })).toBeVisible();

    // Any other origin: Chromium refuses to render it and says why.
    const refused = await framedPage(page, other.frame(joinUrl));
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    expect(refused[0]).toContain(`frame-ancestors ${allowed.origin}`);
    await expect(meeting.getByTestId('joining-as')).toHaveCount(0);

    // And a link that is not a participant's (no tenant to ask) is framed by nobody.
    const unknown = await framedPage(page, allowed.frame(`${base}/join?token=not-a-token&url=ws://127.0.0.1:1`));
    await expect.poll(() => unknown.length).toBeGreaterThan(0);
    expect(unknown[0]).toContain("frame-ancestors 'none'");
  } finally {
    allowed.close();
    other.close();
  }
});
