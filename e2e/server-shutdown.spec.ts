import { test, expect } from '@playwright/test';
import pg from 'pg';
import { createSeededDatabase, startAppServer } from './support/app';
import { startWebhookReceiver } from '../test/support/webhook-receiver';

/**
 * Graceful shutdown of the production server itself (`server/main.ts`, not the Vitest
 * harness's server): on SIGTERM Next stops accepting connections and exits, and that exit must wait for
 * our own work — a webhook attempt in flight, and the API-request counters kept in memory.
 * A database of its own: the console suite's server runs a delivery runner too.
 */
test('SIGTERM to the production server finishes an in-flight webhook attempt and keeps every API request counted', async ({
  request,
}) => {
  test.setTimeout(120_000);
  // A receiver that answers 1.5 s after the request arrives.
  const receiver = await startWebhookReceiver(() => ({ status: 200, body: 'ok', delayMs: 1500 }));
  const webhookUrl = receiver.url;

  const database = await createSeededDatabase(process.env.E2E_POSTGRES_ADMIN_URL!);
  const { providerKey } = JSON.parse(database.seed) as { providerKey: string };
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const server = await startAppServer(database.url, { WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
  try {
    const provisioned = await request.post(`${server.baseUrl}/api/v1/provider/tenants`, {
      headers: { 'x-provider-key': providerKey },
      data: { name: 'Shutdown Co', webhookUrl },
    });
    expect(provisioned.status()).toBe(201);
    const { tenant, apiKey } = await provisioned.json();
    const headers = { 'x-api-key': apiKey.plainTextKey };

    for (let i = 0; i < 3; i++)
      expect((await request.get(`${server.baseUrl}/api/v1/tenant`, { headers })).status()).toBe(200);
    const sent = await request.post(`${server.baseUrl}/api/v1/webhooks/test`, { headers, data: {} });
    expect(sent.status()).toBe(202);
    const { deliveryId } = await sent.json();
    await receiver.waitFor(1); // the attempt is now waiting on the slow receiver
    await server.stop();

    const delivery = await db.query(`SELECT status, "attemptCount" FROM "WebhookDelivery" WHERE id = $1`, [deliveryId]);
    expect(delivery.rows[0]).toEqual({ status: 'DELIVERED', attemptCount: 1 });
    // Four requests with the tenant's key (three reads and the test event), none lost at exit.
    const counted = await db.query(
      `SELECT sum(value)::int AS n FROM "UsageCounter" WHERE "tenantId" = $1 AND metric = 'api_requests'`,
      [tenant.id],
    );
    expect(counted.rows[0].n).toBe(4);
  } finally {
    await server.stop(0);
    await receiver.close();
    await db.end();
    await database.drop();
  }
});
