import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { colourAt, probe } from '../test/support/media-probe';
import { freePort } from './support/app';
import { createTenant, type TenantApi } from './support/tenant';
import { enter, expectRemoteVideoAdvancing, person } from './support/call';

/**
 * Recording a real call in the hosted call UI (issue 32 item 3): two browsers publish what the UI
 * publishes (simulcast, dynacast), the recording is started and stopped through Convene's API, and
 * the file downloaded from Convene is decoded: H.264 + AAC MP4 at the room's preset, of the
 * recorded length, its frames showing both people's tiles. A stream of the call to an RTMP
 * server that refuses ends FAILED with the reason.
 */
let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Recordings');
});
const api: TenantApi['api'] = (...args) => tenant.api(...args);

test.describe.configure({ timeout: 150_000 });

test('a live hosted call is recorded through the API into a playable MP4 with both people, and recording.completed fires', async ({
  browser,
}) => {
  const hook = await startWebhookReceiver();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'convene-recording-'));
  try {
    expect(
      (
        await api('PATCH', '/api/v1/tenant/webhook', {
          webhookUrl: hook.url,
          webhookEvents: ['recording.completed', 'egress.ended'],
        })
      ).status,
    ).toBe(200);
    const room = (
      await api('POST', '/api/v1/rooms', { name: 'Recorded call', createdByExternalId: 'e2e', enableRecording: true })
    ).body as { id: string };
    const [ada, bob] = [await person(browser), await person(browser)];
    for (const [page, who, role] of [
      [ada, 'ada', 'HOST'],
      [bob, 'bob', 'ATTENDEE'],
    ] as const) {
      const joined = await api('POST', `/api/v1/rooms/${room.id}/join`, {
        externalUserId: who,
        displayName: who,
        role,
      });
      await enter(page, joined.body.joinUrl);
    }
    await expectRemoteVideoAdvancing(ada);
    await expectRemoteVideoAdvancing(bob);

    const requestedAt = Date.now();
    const started = await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { createdByExternalId: 'ada' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ status: 'STARTING', preset: 'H264_720P_30' });
    const recording = () => api('GET', `/api/v1/recordings/${started.body.id}`).then((r) => r.body);
    await expect.poll(async () => (await recording()).status, { timeout: 30_000 }).toBe('ACTIVE');
    // The API says ACTIVE on the media layer's egress_started; the file starts when the encoder
    // takes its first frame, seconds later on a busy machine. That moment is when the media layer
    // marks the room as recording, which everyone in the call sees: the file begins no later.
    await expect(ada.getByTestId('recording-badge')).toBeVisible({ timeout: 30_000 });
    const activeAt = Date.now();
    await ada.waitForTimeout(10_000);
    const stopRequestedAt = Date.now();
    expect((await api('POST', `/api/v1/rooms/${room.id}/recordings/stop`)).status).toBe(200);
    const stoppedAt = Date.now();
    await expect.poll(async () => (await recording()).status, { timeout: 90_000 }).toBe('COMPLETED');
    await expect
      .poll(() => hook.received.map((r) => JSON.parse(r.body)).find((e) => e.event === 'recording.completed'), {
        timeout: 20_000,
      })
      .toMatchObject({ event: 'recording.completed', data: { roomId: room.id, sizeBytes: expect.any(Number) } });

    const download = await tenant.get(`/api/v1/recordings/${started.body.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    const file = path.join(dir, 'call.mp4');
    writeFileSync(file, Buffer.from(await download.arrayBuffer()));
    const probed = probe(file);
    expect(probed).toMatchObject({
      format: 'mov',
      decodes: true,
      video: { codec: 'h264', width: 1280, height: 720, fps: 30 },
      audio: { codec: 'aac', sampleRate: 48000 },
    });
    // It spans at least the time we saw it active before asking it to stop, and at most the time
    // from the start request to the stop's answer (which waits for the file to be finished). An
    // encoder that fell behind repeats its pictures (a new one each second): the length is kept.
    expect(probed.durationSeconds).toBeGreaterThan((stopRequestedAt - activeAt) / 1000 - 1);
    expect(probed.durationSeconds).toBeLessThan((stoppedAt - requestedAt) / 1000 + 1);
    // Two side-by-side tiles of the fake cameras (green), letter-boxed (black) above them, in one of
    // the last frames: on a busy machine a track's decoder (below the browsers' priority) may take
    // seconds to its first picture, and the tile is dark grey (green 26) until then.
    const frames = [2.5, 1.5, 0.7].map((beforeEnd) =>
      colourAt(file, probed.durationSeconds - beforeEnd, [
        [0.15, 0.5],
        [0.65, 0.5],
        [0.25, 0.1],
      ]).map(([, g]) => g),
    );
    expect(Math.max(...frames.map(([left, right]) => Math.min(left, right))), JSON.stringify(frames)).toBeGreaterThan(
      60,
    );
    for (const [, , band] of frames) expect(band).toBeLessThan(20);

    // Streaming the same call to an RTMP server that refuses: the stream ends FAILED, with the one text
    // every unreachable destination gets (ffmpeg's reason would tell a closed port from an open one).
    const closedPort = await freePort();
    const stream = await api('POST', '/api/v1/streaming/start', {
      roomId: room.id,
      urls: [`rtmp://127.0.0.1:${closedPort}/live/stream-key`],
    });
    expect(stream.status, JSON.stringify(stream.body)).toBe(201);
    await expect
      .poll(async () => (await api('GET', `/api/v1/streaming/${stream.body.id}`)).body, { timeout: 30_000 })
      .toMatchObject({
        status: 'FAILED',
        error: 'A stream destination could not be reached or did not accept the stream.',
      });
    expect(JSON.stringify((await api('GET', `/api/v1/streaming/${stream.body.id}`)).body)).not.toContain('stream-key');
    await expect
      .poll(() => hook.received.map((r) => JSON.parse(r.body)).filter((e) => e.event === 'egress.ended').length, {
        timeout: 20_000,
      })
      .toBe(2);
    await ada.context().close();
    await bob.context().close();
  } finally {
    await api('PATCH', '/api/v1/tenant/webhook', { webhookUrl: null, webhookEvents: null });
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
