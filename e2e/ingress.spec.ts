import { ffmpegBin } from '../test/support/media-probe';
import { test, expect } from '@playwright/test';
import { publishOverWhip } from '../test/support/whip-publish';
import { spawn } from 'node:child_process';
import { enter, expectRemoteVideoAdvancing, person } from './support/call';

/**
 * Ingress into a real call: ingresses created through the API, ffmpeg pushing a test pattern to
 * the RTMP ingress and a browser page publishing its fake camera over WHIP; a participant in the
 * hosted call UI sees both as tiles with advancing video, and the ingresses read ACTIVE, then
 * ENDED once the pushes stop (the media layer's ingress webhooks).
 */
const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { providerKey: string };
const base = process.env.CONSOLE_BASE_URL!;

test.describe.configure({ timeout: 180_000 });

test('RTMP and WHIP ingress publishers appear in the call with advancing video', async ({ browser }) => {
  const tenantRes = await fetch(`${base}/api/v1/provider/tenants`, {
    method: 'POST',
    headers: { 'x-provider-key': seed.providerKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Ingress ${Date.now()}` }),
  });
  expect(tenantRes.status).toBe(201);
  const key = (await tenantRes.json()).apiKey.plainTextKey as string;
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const room = await api('POST', '/api/v1/rooms', { name: 'Broadcast', createdByExternalId: 'e2e' });
  const joined = await api('POST', `/api/v1/rooms/${room.body.id}/join`, {
    externalUserId: 'bob',
    displayName: 'Bob',
  });
  const bob = await person(browser);
  await enter(bob, joined.body.joinUrl);

  const create = async (inputType: 'RTMP' | 'WHIP', identity: string, name: string) => {
    const res = await api('POST', '/api/v1/ingress', {
      roomId: room.body.id,
      name,
      inputType,
      participantIdentity: identity,
      participantName: name,
      createdByExternalId: 'e2e',
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; ingressUrl: string; streamKey: string };
  };
  const rtmp = await create('RTMP', 'encoder', 'Studio encoder');
  const whip = await create('WHIP', 'whip-cam', 'WHIP camera');

  const push = spawn(
    ffmpegBin,
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15', '-c:a', 'aac'],
      ...['-t', '60', '-f', 'flv', `${rtmp.ingressUrl}/${rtmp.streamKey}`],
    ],
    { stdio: 'ignore' },
  );
  const camera = await person(browser);
  let published: Awaited<ReturnType<typeof publishOverWhip>> | undefined;
  try {
    // The WHIP publisher: any page with a camera, speaking WHIP to the ingress URL.
    await camera.goto(`${base}/join`);
    published = await publishOverWhip(camera, { url: whip.ingressUrl, key: whip.streamKey });
    expect(published.status).toBe(201);

    await expect(bob.locator('.lk-participant-tile', { hasText: 'Studio encoder' })).toBeVisible({ timeout: 30_000 });
    await expect(bob.locator('.lk-participant-tile', { hasText: 'WHIP camera' })).toBeVisible({ timeout: 30_000 });
    await expectRemoteVideoAdvancing(bob, 2);
    // The media layer's webhooks for one room arrive in order, after the joins and track events before them.
    for (const ingress of [rtmp, whip])
      await expect
        .poll(async () => (await api('GET', `/api/v1/ingress/${ingress.id}`)).body.status, { timeout: 30_000 })
        .toBe('ACTIVE');
  } finally {
    push.kill('SIGKILL');
    // WHIP's way to stop: DELETE the session the answer's Location names.
    if (published?.location) await fetch(new URL(published.location, whip.ingressUrl), { method: 'DELETE' });
    await camera.close();
  }
  for (const ingress of [rtmp, whip])
    await expect
      .poll(async () => (await api('GET', `/api/v1/ingress/${ingress.id}`)).body.status, { timeout: 15_000 })
      .toBe('ENDED');
});
