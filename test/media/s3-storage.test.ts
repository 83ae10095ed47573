import { afterAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { startS3Server } from '../support/s3-server';
import { db } from '@/lib/db';

let s3: Awaited<ReturnType<typeof startS3Server>>;
const suite = useSuite({
  env: async () => {
    s3 = await startS3Server();
    return {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'recordings',
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'test',
      S3_SECRET_ACCESS_KEY: 'test',
      S3_FORCE_PATH_STYLE: 'true',
    };
  },
});
afterAll(() => s3?.close());

describe('recordings on S3-compatible storage', () => {
  it('egress is told to upload to the bucket; completion checks the object; download and delete use it', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = (
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', enableRecording: true },
      })
    ).body;
    const rec = (await suite.api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { key: t.key, body: {} })).body;
    const egress = [...suite.media.egresses.values()].at(-1)!;
    const row = await db().recording.findUniqueOrThrow({ where: { id: rec.id } });
    const request = JSON.stringify(egress.request);
    expect(request).toContain('"bucket":"recordings"');
    expect(request).toContain(row.storageKey);
    const hook = `${suite.app.baseUrl}/api/media/webhook`;

    // Not uploaded yet: egress ended says nothing about the file → FAILED.
    await suite.media.sendWebhook(hook, {
      event: 'egress_ended',
      egressInfo: { egressId: egress.egressId, roomName: room.mediaRoomName, status: 'EGRESS_COMPLETE' },
    });
    expect((await suite.api('GET', `/api/v1/recordings/${rec.id}`, { key: t.key })).body.status).toBe('FAILED');

    const second = (await suite.api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { key: t.key, body: {} }))
      .body;
    const egress2 = [...suite.media.egresses.values()].at(-1)!;
    const row2 = await db().recording.findUniqueOrThrow({ where: { id: second.id } });
    s3.objects.set(`/recordings/${row2.storageKey}`, Buffer.alloc(3000, 5)); // what egress uploads
    await suite.media.sendWebhook(hook, {
      event: 'egress_ended',
      egressInfo: { egressId: egress2.egressId, roomName: room.mediaRoomName, status: 'EGRESS_COMPLETE' },
    });
    expect((await suite.api('GET', `/api/v1/recordings/${second.id}`, { key: t.key })).body).toMatchObject({
      status: 'COMPLETED',
      sizeBytes: 3000,
    });
    const download = await fetch(`${suite.app.baseUrl}/api/v1/recordings/${second.id}/download`, {
      headers: { 'x-api-key': t.key },
    });
    expect((await download.arrayBuffer()).byteLength).toBe(3000);
    await suite.api('DELETE', `/api/v1/recordings/${second.id}`, { key: t.key });
    expect(s3.objects.has(`/recordings/${row2.storageKey}`)).toBe(false);
    expect(s3.requests).toContain(`DELETE /recordings/${row2.storageKey}`);
  });
});
