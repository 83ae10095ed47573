/**
 * Two app processes, one PostgreSQL (and Redis for shared rate limits): nothing is delivered
 * twice, caps hold across both, limits are shared, and scheduled work outlives its instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { apiClient, baseTestEnv, startApp, type Api, type AppProcess } from '../support/app';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { seedTenant } from '../support/suite';
import { resetConfigForTests } from '@/lib/config';
import { db, disconnectDb } from '@/lib/db';

let database: TestDatabase;
let media: DevMediaServer;
let env: Record<string, string>;
let apps: AppProcess[] = [];
let api: Api[] = [];
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await createTestDatabase();
  media = await startDevMediaServer();
  env = baseTestEnv(database.url, {
    ...media.env(),
    REDIS_URL: 'redis://127.0.0.1:6379',
    WEBHOOK_BACKOFF_BASE_MS: '100',
    LIFECYCLE_INTERVAL_SECONDS: '2',
  });
  Object.assign(process.env, env);
  resetConfigForTests();
  await disconnectDb();
  apps = await Promise.all([startApp(env), startApp(env)]);
  api = apps.map((a) => apiClient(a.baseUrl));
  receiver = await startWebhookReceiver();
}, 60_000);

afterAll(async () => {
  try {
    await Promise.all(apps.map((a) => a.stop()));
    await receiver?.close();
    await media?.close();
    await disconnectDb();
  } finally {
    await database?.drop(); // even when setup failed half-way: leave nothing behind
  }
}, 60_000);

describe('two instances, one database', () => {
  it('each webhook is delivered exactly once across both', async () => {
    const t = await seedTenant({ webhookUrl: receiver.url, plan: 'enterprise' });
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api[i % 2]('POST', '/api/v1/webhooks/test', { key: t.key, body: {} })),
    );
    expect(sent.filter((s) => s.status !== 202).map((s) => s.text)).toEqual([]);
    await receiver.waitFor(40);
    await new Promise((r) => setTimeout(r, 1000));
    const ids = receiver.received.map((r) => r.headers['x-webhook-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(await db().webhookAttempt.count({ where: { delivery: { tenantId: t.tenant.id } } })).toBe(40);
  });

  it('the participant cap holds when joins are spread over both', async () => {
    const t = await seedTenant({ plan: 'enterprise' });
    const room = (
      await api[0]('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u', maxParticipants: 7 } })
    ).body;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api[i % 2]('POST', `/api/v1/rooms/${room.id}/join`, {
          key: t.key,
          body: { externalUserId: `p${i}`, displayName: 'P' },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    expect(results.filter((r) => r.status === 409)).toHaveLength(53);
  });

  it('rate limits are shared through Redis', async () => {
    const t = await seedTenant({ entitlementOverrides: { apiRequestsPerSecond: 4 } });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api[i % 2]('GET', '/api/v1/tenant', { key: t.key })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    // Per-process stores would admit up to 8 (4 on each instance); a shared one admits at most 4.
    expect(ok).toBeLessThanOrEqual(4);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(8);
  });

  it('a scheduled job runs after the instance that scheduled it is killed', async () => {
    const t = await seedTenant({ plan: 'enterprise' });
    const room = (
      await api[0]('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', autoEndAt: new Date(Date.now() + 3000).toISOString() },
      })
    ).body;
    await apps[0].kill();
    await expect
      .poll(async () => (await db().room.findUniqueOrThrow({ where: { id: room.id } })).status, {
        timeout: 20_000,
        interval: 250,
      })
      .toBe('ENDED');
    const finished = (await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'room.finished' } })).filter(
      (e) => (e.data as { roomId: string }).roomId === room.id,
    );
    expect(finished).toHaveLength(1);
    apps[0] = await startApp(env);
  }, 40_000);
});
