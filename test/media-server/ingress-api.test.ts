/**
 * Ingress through Convene's API on the development media server: an RTMP push to the ingress
 * the API created makes it ACTIVE (ingress.started), the push's end makes it ENDED (ingress.ended).
 */
import { ffmpegBin } from '../support/media-probe';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  suite.media.setWebhookUrls([`${suite.app.baseUrl}/api/media/webhook`]);
});

describe('ingress through the API', () => {
  it('an RTMP push makes the ingress ACTIVE with ingress.started; its end makes it ENDED with ingress.ended', async () => {
    const room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
    const created = await suite.api('POST', '/api/v1/ingress', {
      key: t.key,
      body: {
        roomId: room.id,
        name: 'encoder',
        inputType: 'RTMP',
        participantIdentity: 'encoder',
        participantName: 'Studio encoder',
        createdByExternalId: 'u',
      },
    });
    expect(created.status).toBe(201);
    const ingress = created.body as { id: string; ingressUrl: string; streamKey: string };
    const status = async () => (await suite.api('GET', `/api/v1/ingress/${ingress.id}`, { key: t.key })).body.status;

    const push = spawn(
      ffmpegBin,
      [
        ...['-hide_banner', '-loglevel', 'error', '-re'],
        ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-t', '30'],
        ...['-f', 'flv', `${ingress.ingressUrl}/${ingress.streamKey}`],
      ],
      { stdio: 'ignore' },
    );
    try {
      await expect.poll(status, { timeout: 15_000 }).toBe('ACTIVE');
      expect(suite.media.rooms.get(room.mediaRoomName)?.participants.get('encoder')?.name).toBe('Studio encoder');
    } finally {
      push.kill('SIGKILL');
    }
    await expect.poll(status, { timeout: 15_000 }).toBe('ENDED');
    const events = await db().event.findMany({ where: { tenantId: t.tenant.id }, orderBy: { createdAt: 'asc' } });
    expect(events.filter((e) => e.name.startsWith('ingress.')).map((e) => e.name)).toEqual([
      'ingress.started',
      'ingress.ended',
    ]);
  }, 60_000);
});
