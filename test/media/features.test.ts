import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const storageDir = mkdtempSync(path.join(os.tmpdir(), 'convene-storage-'));
const suite = useSuite({ env: () => ({ STORAGE_DIR: storageDir }) });
let t: Awaited<ReturnType<typeof seedTenant>>;
let sandbox: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  sandbox = await seedTenant({ isTestMode: true });
});

const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
const room = async (key: string, body: Record<string, unknown> = {}) =>
  (await suite.api('POST', '/api/v1/rooms', { key, body: { createdByExternalId: 'u', ...body } })).body;
const events = async (name: string) => db().event.findMany({ where: { tenantId: t.tenant.id, name } });

describe('recordings', () => {
  it('start → egress started → ended with the file in storage → COMPLETED, recording.completed, download, delete', async () => {
    const r = await room(t.key, { enableRecording: true, recordingPreset: 'H264_1080P_30' });
    const started = await suite.api('POST', `/api/v1/rooms/${r.id}/recordings/start`, {
      key: t.key,
      body: { createdByExternalId: 'host' },
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ roomId: r.id, status: 'STARTING', preset: 'H264_1080P_30' });
    const egress = [...suite.media.egresses.values()].at(-1)!;
    expect(egress.roomName).toBe(r.mediaRoomName);
    expect(egress.request).toMatchObject({ preset: 'H264_1080P_30' }); // the room's encoding preset reaches egress
    expect(
      (await suite.api('POST', `/api/v1/rooms/${r.id}/recordings/start`, { key: t.key, body: {} })).body.error.code,
    ).toBe('CONFLICT');

    await suite.media.sendWebhook(hook(), {
      event: 'egress_started',
      egressInfo: { egressId: egress.egressId, roomName: r.mediaRoomName, status: 'EGRESS_ACTIVE' },
    });
    expect((await suite.api('GET', `/api/v1/recordings/${started.body.id}`, { key: t.key })).body.status).toBe(
      'ACTIVE',
    );
    const stopped = await suite.api('POST', `/api/v1/rooms/${r.id}/recordings/stop`, { key: t.key });
    expect(stopped.body.status).toBe('STOPPING');
    expect(suite.media.callsTo('StopEgress').at(-1)!.body.egressId).toBe(egress.egressId);

    // The media layer's egress writes the file where Convene told it to.
    const recordingRow = await db().recording.findUniqueOrThrow({ where: { id: started.body.id } });
    const filepath = path.join(storageDir, recordingRow.storageKey);
    expect(JSON.stringify(egress.request)).toContain(filepath);
    mkdirSync(path.dirname(filepath), { recursive: true });
    writeFileSync(filepath, Buffer.alloc(2048, 7));
    await suite.media.sendWebhook(hook(), {
      event: 'egress_ended',
      egressInfo: { egressId: egress.egressId, roomName: r.mediaRoomName, status: 'EGRESS_COMPLETE' },
    });
    const done = (await suite.api('GET', `/api/v1/recordings/${started.body.id}`, { key: t.key })).body;
    expect(done).toMatchObject({ status: 'COMPLETED', sizeBytes: 2048 });
    const completed = (await events('recording.completed')).filter(
      (e) => (e.data as { recordingId: string }).recordingId === started.body.id,
    );
    expect(completed).toHaveLength(1);

    const download = await fetch(`${suite.app.baseUrl}/api/v1/recordings/${started.body.id}/download`, {
      headers: { 'x-api-key': t.key },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    expect((await download.arrayBuffer()).byteLength).toBe(2048);
    expect(
      (await suite.api('GET', `/api/v1/recordings?roomId=${r.id}`, { key: t.key })).body.data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([started.body.id]);

    expect((await suite.api('DELETE', `/api/v1/recordings/${started.body.id}`, { key: t.key })).body).toEqual({
      id: started.body.id,
      deleted: true,
    });
    expect(existsSync(filepath)).toBe(false);
    expect((await suite.api('DELETE', `/api/v1/recordings/${started.body.id}`, { key: t.key })).status).toBe(404);
  });

  it('egress ended without a file in storage: FAILED, no recording.completed', async () => {
    const r = await room(t.key, { enableRecording: true });
    const started = (await suite.api('POST', `/api/v1/rooms/${r.id}/recordings/start`, { key: t.key, body: {} })).body;
    const egress = [...suite.media.egresses.values()].at(-1)!;
    await suite.media.sendWebhook(hook(), {
      event: 'egress_ended',
      egressInfo: { egressId: egress.egressId, roomName: r.mediaRoomName, status: 'EGRESS_COMPLETE' },
    });
    const rec = (await suite.api('GET', `/api/v1/recordings/${started.id}`, { key: t.key })).body;
    expect(rec.status).toBe('FAILED');
    expect(rec.error).toMatch(/missing or empty/);
    expect(
      (await events('recording.completed')).filter(
        (e) => (e.data as { recordingId: string }).recordingId === started.id,
      ),
    ).toHaveLength(0);
    expect(
      (await events('recording.failed')).filter((e) => (e.data as { recordingId: string }).recordingId === started.id),
    ).toHaveLength(1);
    expect((await suite.api('GET', `/api/v1/recordings/${started.id}/download`, { key: t.key })).status).toBe(409);
  });

  it('a failed egress produces a failed recording', async () => {
    const r = await room(t.key, { enableRecording: true });
    const started = (await suite.api('POST', `/api/v1/rooms/${r.id}/recordings/start`, { key: t.key, body: {} })).body;
    const egress = [...suite.media.egresses.values()].at(-1)!;
    await suite.media.sendWebhook(hook(), {
      event: 'egress_ended',
      egressInfo: {
        egressId: egress.egressId,
        roomName: r.mediaRoomName,
        status: 'EGRESS_FAILED',
        error: 'encoder crashed',
      },
    });
    expect((await suite.api('GET', `/api/v1/recordings/${started.id}`, { key: t.key })).body).toMatchObject({
      status: 'FAILED',
      error: 'encoder crashed',
    });
  });

  it('refusals: test mode first, then enableRecording, then E2EE; nothing reaches the media layer', async () => {
    const before = suite.media.callsTo('StartRoomCompositeEgress').length;
    const sb = await room(sandbox.key, { enableRecording: true });
    const testMode = await suite.api('POST', `/api/v1/rooms/${sb.id}/recordings/start`, { key: sandbox.key, body: {} });
    expect([testMode.status, testMode.body.error.code]).toEqual([403, 'TEST_MODE_MEDIA_DISABLED']);
    const off = await room(t.key);
    expect(
      (await suite.api('POST', `/api/v1/rooms/${off.id}/recordings/start`, { key: t.key, body: {} })).body.error.code,
    ).toBe('FEATURE_DISABLED');
    const e2ee = await room(t.key, { enableRecording: true, enableE2EE: true });
    expect(
      (await suite.api('POST', `/api/v1/rooms/${e2ee.id}/recordings/start`, { key: t.key, body: {} })).body.error.code,
    ).toBe('FEATURE_DISABLED');
    expect(suite.media.callsTo('StartRoomCompositeEgress').length).toBe(before);
  });

  it('autoRecord starts recording when the media room starts', async () => {
    const r = await room(t.key, { enableRecording: true, autoRecord: true });
    await suite.media.sendWebhook(hook(), { event: 'room_started', room: { name: r.mediaRoomName, sid: 'RM_auto' } });
    const recs = await db().recording.findMany({ where: { roomId: r.id } });
    expect(recs).toHaveLength(1);
    expect(recs[0].createdByExternalId).toBe('autoRecord');
  });

  it('with the media layer down, start is 502 and no recording row exists', async () => {
    const r = await room(t.key, { enableRecording: true });
    suite.media.setDown(true);
    try {
      const res = await suite.api('POST', `/api/v1/rooms/${r.id}/recordings/start`, { key: t.key, body: {} });
      expect([res.status, res.body.error.code]).toEqual([502, 'MEDIA_LAYER_UNAVAILABLE']);
    } finally {
      suite.media.setDown(false);
    }
    expect(await db().recording.count({ where: { roomId: r.id } })).toBe(0);
  });
});

describe('streaming', () => {
  it('starts an RTMP stream without ever echoing the stream key, and stops it', async () => {
    const r = await room(t.key);
    const key = 'live_sk_9f8e7d6c5b4a';
    const res = await suite.api('POST', '/api/v1/streaming/start', {
      key: t.key,
      body: { roomId: r.id, urls: [`rtmp://a.rtmp.youtube.com/live2/${key}`] },
    });
    expect(res.status).toBe(201);
    expect(res.body.destinations).toEqual(['rtmp://a.rtmp.youtube.com/live2/••••5b4a']);
    expect(res.text).not.toContain(key);
    const got = await suite.api('GET', `/api/v1/streaming/${res.body.id}`, { key: t.key });
    expect(got.text).not.toContain(key);
    expect(JSON.stringify([...suite.media.egresses.values()].at(-1)!.request)).toContain(key);
    expect((await suite.api('POST', `/api/v1/streaming/${res.body.id}/stop`, { key: t.key })).body.status).toBe(
      'STOPPING',
    );
    expect(suite.app.output()).not.toContain(key);
    expect(
      (
        await suite.api('POST', '/api/v1/streaming/start', {
          key: t.key,
          body: { roomId: r.id, urls: ['http://not-rtmp'] },
        })
      ).status,
    ).toBe(400);
    const sb = await room(sandbox.key);
    expect(
      (
        await suite.api('POST', '/api/v1/streaming/start', {
          key: sandbox.key,
          body: { roomId: sb.id, urls: ['rtmp://x.example.com/app/k'] },
        })
      ).body.error.code,
    ).toBe('TEST_MODE_MEDIA_DISABLED');
  });
});

describe('ingress', () => {
  it('creates an RTMP ingress with URL and stream key, follows its state, and deletes it', async () => {
    const r = await room(t.key);
    const res = await suite.api('POST', '/api/v1/ingress', {
      key: t.key,
      body: {
        roomId: r.id,
        name: 'OBS',
        participantIdentity: 'obs',
        participantName: 'Stage camera',
        createdByExternalId: 'host',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      inputType: 'RTMP',
      status: 'CREATED',
      ingressUrl: expect.stringMatching(/^rtmp:\/\/127\.0\.0\.1:\d+\/live$/), // a listener of its own per ingress
      streamKey: expect.any(String),
      enableTranscoding: true,
    });
    await suite.media.sendWebhook(hook(), {
      event: 'ingress_started',
      ingressInfo: {
        ingressId: res.body.mediaIngressId,
        roomName: r.mediaRoomName,
        state: { status: 'ENDPOINT_PUBLISHING' },
      },
    });
    expect((await suite.api('GET', `/api/v1/ingress/${res.body.id}`, { key: t.key })).body.status).toBe('ACTIVE');
    await suite.media.sendWebhook(hook(), {
      event: 'ingress_ended',
      ingressInfo: { ingressId: res.body.mediaIngressId, roomName: r.mediaRoomName },
    });
    expect((await suite.api('GET', `/api/v1/ingress/${res.body.id}`, { key: t.key })).body.status).toBe('ENDED');
    expect((await suite.api('DELETE', `/api/v1/ingress/${res.body.id}`, { key: t.key })).body.status).toBe('DELETED');
    expect(suite.media.ingresses.has(res.body.mediaIngressId)).toBe(false);
    expect((await suite.api('GET', `/api/v1/ingress/${res.body.id}`, { key: t.key })).status).toBe(404);
    const whip = await suite.api('POST', '/api/v1/ingress', {
      key: t.key,
      body: {
        roomId: r.id,
        name: 'W',
        inputType: 'WHIP',
        participantIdentity: 'w',
        participantName: 'W',
        createdByExternalId: 'host',
      },
    });
    expect(whip.body.inputType).toBe('WHIP');
    expect(
      (
        await suite.api('POST', '/api/v1/ingress', {
          key: t.key,
          body: {
            roomId: r.id,
            name: 'x',
            inputType: 'SRT',
            participantIdentity: 'w',
            participantName: 'W',
            createdByExternalId: 'h',
          },
        })
      ).status,
    ).toBe(400);
  });
});
