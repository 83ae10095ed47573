import { test, expect, type APIRequestContext, type Frame, type Page } from '@playwright/test';
import http from 'node:http';
import type net from 'node:net';
import { enter, person } from './support/call';

/**
 * The embedding API in Chromium: public/embed.js on a real parent page served from a second
 * loopback origin (localhost, while Convene is on 127.0.0.1), against the console suite's server.
 * Events arrive in order; commands reach the call UI; a page on an origin the tenant does not
 * allow gets nothing and cannot command — even with the CSP taken away, and from a frame nested
 * inside an allowed page. The E2EE key never appears in a message.
 */
const base = process.env.CONSOLE_BASE_URL!;
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { providerKey: string };

interface Site {
  origin: string;
  url: (path: string, params?: Record<string, string>) => string;
  close: () => void;
}

/**
 * An integrator's site on http://localhost:<port>. `/host?src=` mounts src with embed.js and
 * records every event in window.events; `/sibling?target=` is a page that posts commands to the
 * first frame of its parent (an attacker nested in an allowed page) and records any message.
 */
async function site(): Promise<Site> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'text/html');
    if (url.pathname === '/host') {
      const src = JSON.stringify(url.searchParams.get('src') ?? '');
      const sibling = url.searchParams.get('sibling');
      res.end(`<!doctype html><html lang="en"><title>LMS</title><h1>Course room</h1><div id="meeting" style="width:900px;height:600px"></div>
${sibling ? `<iframe id="sibling" title="widget" src="${sibling.replace(/"/g, '&quot;')}"></iframe>` : ''}
<script src="${base}/embed.js"></script>
<script>
  window.events = [];
  window.raw = [];
  window.addEventListener('message', (e) => window.raw.push({ origin: e.origin, data: JSON.stringify(e.data) }));
  window.call = ConveneEmbed.mount(document.getElementById('meeting'), { url: ${src}, title: 'meeting' });
  window.call.on('*', (data, event) => window.events.push({ event, data }));
</script></html>`);
    } else if (url.pathname === '/sibling') {
      res.end(`<!doctype html><title>widget</title><script>
  window.got = [];
  window.addEventListener('message', (e) => e.source !== window && window.got.push(JSON.stringify(e.data)));
  // Every other frame of the parent page (the meeting among them), with any target origin.
  window.attack = (command) => {
    for (let i = 0; i < parent.frames.length; i++) if (parent.frames[i] !== window) parent.frames[i].postMessage({ source: 'convene-embed', command }, '*');
  };
</script>`);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://localhost:${(server.address() as net.AddressInfo).port}`;
  return {
    origin,
    url: (path, params = {}) => `${origin}${path}?${new URLSearchParams(params)}`,
    close: () => server.close(),
  };
}

async function tenant(request: APIRequestContext, frameAncestors: string[]) {
  const res = await request.post(`${base}/api/v1/provider/tenants`, {
    headers: { 'x-provider-key': seed.providerKey },
    data: { name: 'Embedding Co', frameAncestors },
  });
  expect(res.status()).toBe(201);
  return { 'x-api-key': (await res.json()).apiKey.plainTextKey as string };
}

async function room(request: APIRequestContext, headers: Record<string, string>, data: Record<string, unknown> = {}) {
  return (
    await request.post(`${base}/api/v1/rooms`, {
      headers,
      data: { createdByExternalId: 'teacher', name: 'Physics 101', ...data },
    })
  ).json();
}

async function join(
  request: APIRequestContext,
  headers: Record<string, string>,
  roomId: string,
  data: Record<string, unknown> = {},
) {
  const res = await request.post(`${base}/api/v1/rooms/${roomId}/join`, {
    headers,
    data: { externalUserId: `u${Math.random()}`, displayName: 'Ada Lovelace', ...data },
  });
  expect(res.ok()).toBe(true);
  return res.json();
}

const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { events: { event: string; data: Record<string, unknown> }[] }).events);
const names = async (page: Page) => (await events(page)).map((e) => e.event);
const command = (page: Page, method: 'leave' | 'toggleMicrophone' | 'toggleCamera') =>
  page.evaluate((m) => (window as unknown as { call: Record<string, () => void> }).call[m](), method);
const meeting = (page: Page) => page.frameLocator('iframe[title="meeting"]');
function meetingFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(`${base}/join`));
  if (!frame) throw new Error('no meeting frame');
  return frame;
}

test('an allowed page hears ready, errors and the end of the session, and its commands are answered', async ({
  page,
  request,
}) => {
  const lms = await site();
  try {
    const headers = await tenant(request, [lms.origin]);
    const r = await room(request, headers);
    const joined = await join(request, headers, r.id);
    const key = 'e2ee-key-never-in-a-message-0123456789';

    await page.goto(lms.url('/host', { src: `${joined.joinUrl}#${key}` }));
    await expect(meeting(page).getByTestId('joining-as')).toHaveText('Joining as Ada Lovelace');
    await expect.poll(() => events(page)).toEqual([{ event: 'ready', data: { page: 'join' } }]);

    // Before the call, commands are answered, not obeyed.
    await command(page, 'toggleMicrophone');
    await command(page, 'leave');
    await expect.poll(() => names(page)).toEqual(['ready', 'command-failed', 'command-failed']);
    expect((await events(page)).slice(1).map((e) => e.data)).toEqual([
      { command: 'toggle-microphone', reason: 'not-in-call' },
      { command: 'leave', reason: 'not-in-call' },
    ]);
    await page.evaluate(() =>
      (window as unknown as { call: { setDisplayName: (n: string) => void } }).call.setDisplayName(''),
    );
    await expect
      .poll(async () => (await events(page)).at(-1))
      .toEqual({ event: 'command-failed', data: { command: 'set-display-name', reason: 'invalid' } });

    // The entry check's answers: a locked room is an error; an ended meeting ends the session.
    await page.route('**/api/v1/me', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ entry: 'locked' }) }),
    );
    await meeting(page).getByRole('button', { name: 'Join meeting' }).click();
    await expect(meeting(page).getByTestId('error-locked')).toBeVisible();
    await expect.poll(async () => (await events(page)).at(-1)).toEqual({ event: 'error', data: { code: 'locked' } });
    await page.unroute('**/api/v1/me');
    await page.route('**/api/v1/me', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ entry: 'ended' }) }),
    );
    await meeting(page).getByRole('button', { name: 'Try again' }).click();
    await meeting(page).getByRole('button', { name: 'Join meeting' }).click();
    await expect.poll(async () => (await events(page)).at(-1)).toEqual({ event: 'left', data: { reason: 'ended' } });

    // Every message the parent received came from Convene's origin, in the protocol, and none carried the key.
    const raw = await page.evaluate(() => (window as unknown as { raw: { origin: string; data: string }[] }).raw);
    expect(raw.length).toBeGreaterThanOrEqual(6);
    for (const m of raw) {
      expect(m.origin).toBe(base);
      expect(JSON.parse(m.data)).toMatchObject({ source: 'convene', version: 1 });
      expect(m.data).not.toContain(key);
    }
  } finally {
    lms.close();
  }
});

test('the waiting page: ready, waiting, admitted, then the call UI is ready', async ({ page, request }) => {
  const lms = await site();
  try {
    const headers = await tenant(request, [lms.origin]);
    const r = await room(request, headers, { enableWaitingRoom: true });
    await join(request, headers, r.id, { externalUserId: 'teacher', displayName: 'Teacher', role: 'HOST' });
    const parked = await join(request, headers, r.id, { externalUserId: 'ada', lang: 'fr' });
    expect(parked.waitingForApproval).toBe(true);

    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(lms.url('/host', { src: parked.admissionUrl }));
    await expect(meeting(page).getByTestId('waiting-waiting')).toContainText('En attente d’admission');
    expect(errors).toEqual([]);
    await expect.poll(() => names(page)).toEqual(['ready', 'waiting']);
    const approved = await request.post(`${base}/api/v1/rooms/${r.id}/participants/${parked.participant.id}/approve`, {
      headers,
      data: { actingExternalUserId: 'teacher' },
    });
    expect(approved.ok()).toBe(true);
    await expect.poll(() => names(page), { timeout: 15_000 }).toEqual(['ready', 'waiting', 'admitted', 'ready']);
    expect((await events(page)).at(-1)).toEqual({ event: 'ready', data: { page: 'join' } });
    // Still in the page's language after the admission.
    await expect(meeting(page).getByTestId('joining-as')).toHaveText('Vous rejoignez en tant que Ada Lovelace');

    // Refused: the session ends with reason refused.
    const refusedOne = await join(request, headers, r.id, { externalUserId: 'bob', displayName: 'Bob' });
    await page.goto(lms.url('/host', { src: refusedOne.admissionUrl }));
    await expect.poll(() => names(page)).toEqual(['ready', 'waiting']);
    await request.post(`${base}/api/v1/rooms/${r.id}/participants/${refusedOne.participant.id}/deny`, {
      headers,
      data: { actingExternalUserId: 'teacher' },
    });
    await expect
      .poll(() => events(page), { timeout: 15_000 })
      .toEqual([
        { event: 'ready', data: { page: 'waiting' } },
        { event: 'waiting', data: {} },
        { event: 'left', data: { reason: 'refused' } },
      ]);
  } finally {
    lms.close();
  }
});

test('a page on an origin the tenant does not allow receives nothing and cannot command', async ({ page, request }) => {
  const lms = await site();
  const other = await site();
  try {
    const headers = await tenant(request, [lms.origin]);
    const r = await room(request, headers);
    const joined = await join(request, headers, r.id);

    // 1. The browser refuses to render the frame (CSP frame-ancestors): nothing at all arrives.
    const refused: string[] = [];
    page.on('console', (m) => m.text().includes('frame-ancestors') && refused.push(m.text()));
    await page.goto(other.url('/host', { src: joined.joinUrl }));
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    await page.waitForTimeout(1000);
    expect(await events(page)).toEqual([]);

    // 2. Even with the CSP stripped (a proxy that drops headers), the bridge itself stays silent to
    //    a disallowed parent and ignores its commands.
    await page.route(`${base}/join?**`, async (route) => {
      const response = await route.fetch();
      const h = { ...response.headers() };
      delete h['content-security-policy'];
      await route.fulfill({ response, headers: h });
    });
    await page.goto(other.url('/host', { src: joined.joinUrl }));
    await expect(meeting(page).getByTestId('joining-as')).toHaveText('Joining as Ada Lovelace');
    await command(page, 'leave');
    await command(page, 'toggleCamera');
    await page.waitForTimeout(1000);
    expect(await events(page)).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { raw: unknown[] }).raw)).toEqual([]);
    await page.unroute(`${base}/join?**`);

    // 3. A frame from another origin inside an allowed page can neither command the call UI nor
    //    hear it: only the allowed parent's own command is answered.
    await page.goto(lms.url('/host', { src: joined.joinUrl, sibling: other.url('/sibling') }));
    await expect.poll(() => names(page)).toEqual(['ready']);
    const sibling = page.frames().find((f) => f.url().startsWith(other.origin))!;
    await sibling.evaluate(() => (window as unknown as { attack: (c: string) => void }).attack('toggle-camera'));
    await page.waitForTimeout(1000);
    expect(await names(page)).toEqual(['ready']);
    await command(page, 'toggleCamera');
    await expect.poll(() => names(page)).toEqual(['ready', 'command-failed']);
    expect(await sibling.evaluate(() => (window as unknown as { got: string[] }).got)).toEqual([]);
    expect(meetingFrame(page)).toBeTruthy();
  } finally {
    lms.close();
    other.close();
  }
});

test('embed.js mounts the frame with the permissions a call needs', async ({ page, request }) => {
  const lms = await site();
  try {
    const headers = await tenant(request, [lms.origin]);
    const joined = await join(request, headers, (await room(request, headers)).id);
    await page.goto(lms.url('/host', { src: joined.joinUrl }));
    const frame = page.locator('iframe[title="meeting"]');
    await expect(frame).toHaveAttribute(
      'allow',
      'camera; microphone; display-capture; autoplay; fullscreen; clipboard-write',
    );
    await expect(frame).toHaveAttribute('src', joined.joinUrl);
    const script = await request.get(`${base}/embed.js`);
    expect(script.ok()).toBe(true);
    expect(script.headers()['content-type']).toContain('javascript');
  } finally {
    lms.close();
  }
});

/**
 * In a real call, on the development media server the suite's server uses (e2e/support/global-setup.ts):
 * the join URLs Convene mints point at it.
 */
test.describe('in a call', () => {
  const remove = (request: APIRequestContext, headers: Record<string, string>, roomId: string, participantId: string) =>
    request.post(`${base}/api/v1/rooms/${roomId}/participants/${participantId}/remove`, { headers, data: {} });

  test('events arrive in order, commands take effect, and a nested disallowed frame cannot command', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const lms = await site();
    const other = await site();
    try {
      const headers = await tenant(request, [lms.origin]);
      const r = await room(request, headers, { enableRecording: true });
      const joined = await join(request, headers, r.id, { displayName: 'Ada Lovelace' });
      await page.goto(lms.url('/host', { src: joined.joinUrl, sibling: other.url('/sibling') }));
      await meeting(page).getByRole('button', { name: 'Join meeting' }).click();
      await expect.poll(() => names(page), { timeout: 30_000 }).toEqual(['ready', 'joined']);
      expect((await events(page))[1].data).toEqual({ participantCount: 1 });

      // Someone joins (in their own browser) and leaves (closes it): names and counts only.
      const grace = await join(request, headers, r.id, { externalUserId: 'grace', displayName: 'Grace Hopper' });
      const gracePage = await person(browser);
      await enter(gracePage, grace.joinUrl);
      await expect
        .poll(async () => (await events(page)).at(-1), { timeout: 20_000 })
        .toEqual({ event: 'participant-joined', data: { displayName: 'Grace Hopper', participantCount: 2 } });
      await gracePage.context().close();
      await expect
        .poll(async () => (await events(page)).at(-1), { timeout: 30_000 })
        .toEqual({ event: 'participant-left', data: { displayName: 'Grace Hopper', participantCount: 1 } });

      // The room recorded, through the API: the page hears it start and stop.
      const recording = await request.post(`${base}/api/v1/rooms/${r.id}/recordings/start`, { headers, data: {} });
      expect(recording.status(), await recording.text()).toBe(201);
      await expect
        .poll(async () => (await events(page)).at(-1), { timeout: 30_000 })
        .toEqual({ event: 'recording-started', data: {} });
      const stopped = await request.post(`${base}/api/v1/rooms/${r.id}/recordings/stop`, { headers, data: {} });
      expect(stopped.status(), await stopped.text()).toBe(200);
      await expect
        .poll(async () => (await events(page)).at(-1), { timeout: 30_000 })
        .toEqual({ event: 'recording-stopped', data: {} });

      // Commands: the microphone and camera toggle; the display name is not the token's to change.
      const mic = meeting(page).locator('.lk-control-bar button[data-lk-source="microphone"]');
      const cam = meeting(page).locator('.lk-control-bar button[data-lk-source="camera"]');
      await expect(mic).toHaveAttribute('data-lk-enabled', 'true');
      await command(page, 'toggleMicrophone');
      await expect(mic).toHaveAttribute('data-lk-enabled', 'false');
      await command(page, 'toggleMicrophone');
      await expect(mic).toHaveAttribute('data-lk-enabled', 'true');
      await expect(cam).toHaveAttribute('data-lk-enabled', 'true');
      await command(page, 'toggleCamera');
      await expect(cam).toHaveAttribute('data-lk-enabled', 'false');
      await page.evaluate(() =>
        (window as unknown as { call: { setDisplayName: (n: string) => void } }).call.setDisplayName(
          'Countess Lovelace',
        ),
      );
      await expect
        .poll(async () => (await events(page)).at(-1))
        .toEqual({ event: 'command-failed', data: { command: 'set-display-name', reason: 'not-allowed' } });

      // A frame from a disallowed origin inside the allowed page: its leave is ignored.
      const sibling = page.frames().find((f) => f.url().startsWith(other.origin))!;
      const before = (await events(page)).length;
      await sibling.evaluate(() => (window as unknown as { attack: (c: string) => void }).attack('leave'));
      await page.waitForTimeout(1500);
      expect((await events(page)).length).toBe(before);
      await expect(meeting(page).getByRole('group', { name: 'Meeting tools' })).toBeVisible();
      expect(await sibling.evaluate(() => (window as unknown as { got: string[] }).got)).toEqual([]);

      // The parent's leave ends the call: left, reason left.
      await command(page, 'leave');
      await expect
        .poll(async () => (await events(page)).at(-1), { timeout: 15_000 })
        .toEqual({ event: 'left', data: { reason: 'left' } });
      await expect(meeting(page).getByTestId('error-left')).toBeVisible();
      expect(await names(page)).toEqual([
        'ready',
        'joined',
        'participant-joined',
        'participant-left',
        'recording-started',
        'recording-stopped',
        'command-failed',
        'left',
      ]);
    } finally {
      lms.close();
      other.close();
    }
  });

  // A viewer's call renders once the room has connected (nothing of theirs to publish first): the
  // page must still hear that they joined, and a recording already running.
  test('a viewer joining a room being recorded: joined, then recording-started', async ({ page, request }) => {
    test.setTimeout(90_000);
    const lms = await site();
    try {
      const headers = await tenant(request, [lms.origin]);
      const r = await room(request, headers, { enableRecording: true });
      const host = await join(request, headers, r.id, { displayName: 'Grace Hopper', role: 'HOST' });
      const hostPage = await person(page.context().browser()!);
      await enter(hostPage, host.joinUrl);
      const recording = await request.post(`${base}/api/v1/rooms/${r.id}/recordings/start`, { headers, data: {} });
      expect(recording.status(), await recording.text()).toBe(201);
      const viewer = await join(request, headers, r.id, { role: 'VIEWER' });
      await page.goto(lms.url('/host', { src: viewer.joinUrl }));
      await meeting(page).getByRole('button', { name: 'Join meeting' }).click();
      await expect.poll(() => names(page), { timeout: 30_000 }).toEqual(['ready', 'joined', 'recording-started']);
      expect((await events(page))[1].data).toEqual({ participantCount: 2 });
      await hostPage.context().close();
    } finally {
      lms.close();
    }
  });

  test('removed by a host: left with reason removed', async ({ page, request }) => {
    test.setTimeout(90_000);
    const lms = await site();
    try {
      const headers = await tenant(request, [lms.origin]);
      const r = await room(request, headers);
      const joined = await join(request, headers, r.id);
      await page.goto(lms.url('/host', { src: joined.joinUrl }));
      await meeting(page).getByRole('button', { name: 'Join meeting' }).click();
      await expect.poll(() => names(page), { timeout: 30_000 }).toEqual(['ready', 'joined']);
      expect((await remove(request, headers, r.id, joined.participant.id)).ok()).toBe(true);
      await expect.poll(() => names(page), { timeout: 15_000 }).toEqual(['ready', 'joined', 'left']);
      expect((await events(page)).at(-1)!.data).toEqual({ reason: 'removed' });
      await expect(meeting(page).getByTestId('error-removed')).toBeVisible();
    } finally {
      lms.close();
    }
  });
});
