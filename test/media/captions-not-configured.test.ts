import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

// An installation without a speech-to-text service (no STT_BASE_URL) runs no captions worker:
// starting captions says so instead of answering `active: true` with nobody to caption.
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
});

describe('captions without a speech-to-text service', () => {
  it('start is refused with CAPTIONS_NOT_CONFIGURED, nothing is dispatched or stored; status says not configured', async () => {
    const r = (
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', enableAiFeatures: true },
      })
    ).body;
    const dispatchesBefore = suite.media.dispatches.size;
    const started = await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: r.id } });
    expect(started.status).toBe(403);
    expect(started.body.error.code).toBe('CAPTIONS_NOT_CONFIGURED');
    expect(started.body.error.message).toMatch(/STT_BASE_URL/);
    expect(suite.media.dispatches.size).toBe(dispatchesBefore);
    expect(await db().captionSession.count({ where: { roomId: r.id } })).toBe(0);

    const status = await suite.api('GET', `/api/v1/captions/status/${r.id}`, { key: t.key });
    expect(status.body).toMatchObject({ roomId: r.id, active: false, configured: false, agentJoined: false });
    // Another tenant's room is still a 404 first.
    const other = await seedTenant({ plan: 'growth' });
    expect((await suite.api('POST', '/api/v1/captions/start', { key: other.key, body: { roomId: r.id } })).status).toBe(
      404,
    );
  });
});
