import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { baseTestEnv } from '../support/app';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { resetConfigForTests } from '@/lib/config';
import { db, disconnectDb } from '@/lib/db';

let database: TestDatabase;
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(process.env, baseTestEnv(database.url, { WEBHOOK_MAX_ATTEMPTS: '3' }));
  resetConfigForTests();
  await disconnectDb();
  receiver = await startWebhookReceiver((n) => (n < 2 ? { status: 500 } : { status: 200 }));
});
afterAll(async () => {
  await receiver.close();
  await disconnectDb();
  await database.drop();
});

describe('Inngest delivery function', () => {
  it('runs attempts through attemptDelivery with exact sleeps until delivered', async () => {
    const { seedTenant } = await import('../support/suite');
    const { emitEvent } = await import('@/lib/events/outbox');
    const { deliverWebhook, DELIVERY_EVENT } = await import('@/lib/events/inngest');
    const t = await seedTenant({ webhookUrl: receiver.url });
    const { eventId, deliveryId } = await db().$transaction((tx) =>
      emitEvent({ tx, tenantId: t.tenant.id, name: 'webhook.test', data: { test: true }, force: true }),
    );
    const engine = new InngestTestEngine({
      function: deliverWebhook,
      events: [{ name: DELIVERY_EVENT, data: { deliveryId: deliveryId!, tenantId: t.tenant.id, firstAttempt: 1 } }],
      steps: [1, 2].map((n) => ({ id: `backoff-${n}`, handler: vi.fn() })),
    });
    const { result } = await engine.execute();
    expect(result).toEqual({ deliveryId: deliveryId!, outcome: 'delivered', attempts: 3 });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([eventId]));
    const stored = await db().webhookDelivery.findUniqueOrThrow({
      where: { id: deliveryId! },
      include: { attempts: true },
    });
    expect(stored.status).toBe('DELIVERED');
    expect(stored.attempts).toHaveLength(3);
  });
});
