import { afterAll, describe, expect, it } from 'vitest';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { useSuite, seedTenant } from '../support/suite';
import { apiClient, startApp } from '../support/app';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { db, sql } from '@/lib/db';

const BASE = 100;
const suite = useSuite({
  env: () => ({ WEBHOOK_BACKOFF_BASE_MS: String(BASE), WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_TENANT_CONCURRENCY: '4' }),
});
const receivers: WebhookReceiver[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

async function tenantWithReceiver(
  behaviour?: Parameters<typeof startWebhookReceiver>[0],
  extra: Record<string, unknown> = {},
) {
  const receiver = await startWebhookReceiver(behaviour);
  receivers.push(receiver);
  const t = await seedTenant({ webhookUrl: receiver.url, ...extra });
  return { ...t, receiver };
}

/** An independent verifier, written from the spec, not from our signer. */
function verify(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const timestamp = String(headers['x-webhook-timestamp']);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  return String(headers['x-webhook-signature'])
    .split(',')
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(Buffer.from(candidate), expected));
}

const test = (key: string, event?: string) =>
  suite.api('POST', '/api/v1/webhooks/test', { key, body: event ? { event } : {} });

describe('signed deliveries', () => {
  it('delivers the v2 envelope with the five headers and a signature an independent verifier accepts', async () => {
    const t = await tenantWithReceiver();
    const res = await test(t.key);
    expect(res.status).toBe(202);
    expect(res.body.eventId).toMatch(/^evt_/);
    const [got] = await t.receiver.waitFor(1);
    const envelope = JSON.parse(got.body);
    expect(envelope).toEqual({
      version: 2,
      id: res.body.eventId,
      event: 'webhook.test',
      occurredAt: expect.any(String),
      data: expect.objectContaining({ test: true }),
    });
    expect(got.headers).toMatchObject({
      'x-webhook-event': 'webhook.test',
      'x-webhook-id': res.body.eventId,
      'x-webhook-timestamp': envelope.occurredAt,
      'x-webhook-version': '2',
      'content-type': 'application/json',
    });
    expect(got.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(t.webhookSecret, got.headers, got.body)).toBe(true);
    expect(verify('whsec_wrong', got.headers, got.body)).toBe(false);
    expect(verify(t.webhookSecret, got.headers, got.body.replace('webhook.test', 'room.started'))).toBe(false);
    await expect
      .poll(
        async () =>
          (await suite.api('GET', `/api/v1/webhooks/deliveries/${res.body.deliveryId}`, { key: t.key })).body.status,
      )
      .toBe('delivered');
  });

  it('a receiver that always fails gets exactly 6 attempts, same id, gaps following base·2ⁿ', async () => {
    const t = await tenantWithReceiver(() => ({ status: 500, body: 'nope' }));
    const res = await test(t.key);
    const got = await t.receiver.waitFor(6);
    await expect
      .poll(async () => (await db().webhookDelivery.findUniqueOrThrow({ where: { id: res.body.deliveryId } })).status, {
        timeout: 10_000,
      })
      .toBe('FAILED');
    await new Promise((r) => setTimeout(r, 5 * BASE));
    expect(t.receiver.received).toHaveLength(6);
    expect(new Set(got.map((g) => g.headers['x-webhook-id']))).toEqual(new Set([res.body.eventId]));
    const gaps = got.slice(1).map((g, i) => g.at - got[i].at);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(BASE * 2 ** i - 20);
      expect(gap).toBeLessThan(BASE * 2 ** i + 1000);
    });
    const delivery = (await suite.api('GET', `/api/v1/webhooks/deliveries/${res.body.deliveryId}`, { key: t.key }))
      .body;
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 6 });
    expect(delivery.attempts.map((a: { attemptNumber: number }) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(delivery.attempts.map((a: { willRetry: boolean }) => a.willRetry)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(delivery.attempts[0]).toMatchObject({
      responseStatus: 500,
      responseBody: 'nope',
      error: 'receiver answered 500',
    });
    expect(JSON.parse(delivery.attempts[0].requestBody).id).toBe(res.body.eventId);
    expect(delivery.attempts[0].requestHeaders['x-webhook-signature']).toMatch(/^sha256=/);
  }, 30_000);

  it('a timeout and a reset count as failures; a receiver that recovers gets it once, logged as delivered', async () => {
    const t = await tenantWithReceiver((n) => (n === 0 ? 'hang' : n === 1 ? 'reset' : { status: 204 }));
    const res = await test(t.key);
    await t.receiver.waitFor(3);
    await expect
      .poll(
        async () =>
          (await suite.api('GET', `/api/v1/webhooks/deliveries/${res.body.deliveryId}`, { key: t.key })).body.status,
      )
      .toBe('delivered');
    const delivery = (await suite.api('GET', `/api/v1/webhooks/deliveries/${res.body.deliveryId}`, { key: t.key }))
      .body;
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0].error).toMatch(/timeout/);
    expect(delivery.attempts[1].responseStatus).toBeNull();
    expect(delivery.attempts[2]).toMatchObject({ responseStatus: 204, willRetry: false, error: null });
    await new Promise((r) => setTimeout(r, 4 * BASE));
    expect(t.receiver.received).toHaveLength(3);
  });

  it('a redirect is never followed: it counts as a failed attempt and the target gets nothing', async () => {
    const target = await startWebhookReceiver();
    receivers.push(target);
    const t = await tenantWithReceiver(() => ({ status: 307, headers: { location: target.url } }));
    const res = await test(t.key);
    await t.receiver.waitFor(2);
    const delivery = (await suite.api('GET', `/api/v1/webhooks/deliveries/${res.body.deliveryId}`, { key: t.key }))
      .body;
    expect(delivery.attempts[0]).toMatchObject({
      responseStatus: 307,
      willRetry: true,
      error: 'receiver answered 307',
    });
    expect(target.received).toHaveLength(0);
  });

  it('replay re-sends with the ORIGINAL event id', async () => {
    const t = await tenantWithReceiver(() => ({ status: 410 }));
    const res = await test(t.key);
    await expect
      .poll(async () => (await db().webhookDelivery.findUniqueOrThrow({ where: { id: res.body.deliveryId } })).status, {
        timeout: 15_000,
      })
      .toBe('FAILED');
    t.receiver.setBehaviour(() => ({ status: 200 }));
    const before = t.receiver.received.length;
    const replay = await suite.api('POST', `/api/v1/webhooks/deliveries/${res.body.deliveryId}/replay`, { key: t.key });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({
      eventId: res.body.eventId,
      replayOfId: res.body.deliveryId,
      status: 'pending',
    });
    const got = await t.receiver.waitFor(before + 1);
    expect(got[before].headers['x-webhook-id']).toBe(res.body.eventId);
    expect(JSON.parse(got[before].body).id).toBe(res.body.eventId);
    expect((await suite.api('POST', '/api/v1/webhooks/deliveries/missing/replay', { key: t.key })).status).toBe(404);
  }, 30_000);

  it('honours the webhookEvents filter, except for the test endpoint', async () => {
    const t = await tenantWithReceiver();
    const patched = await suite.api('PATCH', '/api/v1/tenant/webhook', {
      key: t.key,
      body: { webhookEvents: ['room.finished'] },
    });
    expect(patched.body.events).toEqual(['room.finished']);
    const room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'a', displayName: 'A' },
    });
    await db().room.update({ where: { id: room.id }, data: { enableWaitingRoom: true } });
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'w', displayName: 'W' },
    }); // participant.waiting: filtered out
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: t.key }); // room.finished: delivered
    await test(t.key, 'participant.joined'); // the test endpoint ignores the filter
    const got = await t.receiver.waitFor(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(t.receiver.received.map((g) => g.headers['x-webhook-event']).sort()).toEqual([
      'participant.joined',
      'room.finished',
    ]);
    expect(await db().event.count({ where: { tenantId: t.tenant.id, name: 'participant.waiting' } })).toBe(1);
    expect(got.length).toBe(2);
  });

  it('during a secret rotation both secrets sign; after the overlap only the new one', async () => {
    const t = await tenantWithReceiver();
    const rotated = await suite.api('POST', '/api/v1/tenant/webhook-secret/rotate', {
      key: t.key,
      body: { overlapSeconds: 3600 },
    });
    expect(rotated.body.webhookSecret).toMatch(/^whsec_/);
    expect(new Date(rotated.body.previousSecretExpiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    await test(t.key);
    const [during] = await t.receiver.waitFor(1);
    const signatures = String(during.headers['x-webhook-signature']).split(',');
    expect(signatures).toHaveLength(2);
    expect(verify(rotated.body.webhookSecret, during.headers, during.body)).toBe(true);
    expect(verify(t.webhookSecret, during.headers, during.body)).toBe(true);
    await db().tenant.update({
      where: { id: t.tenant.id },
      data: { webhookSecretPreviousExpiresAt: new Date(Date.now() - 1000) },
    });
    await test(t.key);
    const after = (await t.receiver.waitFor(2))[1];
    expect(String(after.headers['x-webhook-signature']).split(',')).toHaveLength(1);
    expect(verify(rotated.body.webhookSecret, after.headers, after.body)).toBe(true);
    expect(verify(t.webhookSecret, after.headers, after.body)).toBe(false);
    const tenant = await suite.api('GET', '/api/v1/tenant', { key: t.key });
    expect(tenant.text).not.toContain(rotated.body.webhookSecret);
  });

  it('a provider rotates an owned tenant secret; another provider gets 404', async () => {
    const t = await tenantWithReceiver();
    const mine = await suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/webhook-secret/rotate`, {
      providerKey: t.providerKey,
      body: {},
    });
    expect(mine.status).toBe(200);
    expect(mine.body.webhookSecret).toMatch(/^whsec_/);
    const stranger = await seedTenant();
    const theirs = await suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/webhook-secret/rotate`, {
      providerKey: stranger.providerKey,
      body: {},
    });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(
      (
        await suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/webhook-secret/rotate`, {
          key: t.key,
          body: {},
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/webhook-secret/rotate`, {
          providerKey: t.providerKey,
          body: { overlapSeconds: -1 },
        })
      ).status,
    ).toBe(400);
  });

  it('lists deliveries newest first with status and event filters; another tenant sees none of them', async () => {
    const t = await tenantWithReceiver((n) => (n === 0 ? { status: 200 } : { status: 400 }));
    const ok = await test(t.key);
    await t.receiver.waitFor(1);
    t.receiver.setBehaviour(() => ({ status: 400 }));
    const failing = await test(t.key, 'room.started');
    const list = await suite.api('GET', '/api/v1/webhooks/deliveries', { key: t.key });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([failing.body.deliveryId, ok.body.deliveryId]);
    const delivered = await suite.api('GET', '/api/v1/webhooks/deliveries?status=delivered', { key: t.key });
    expect(delivered.body.data.map((d: { id: string }) => d.id)).toEqual([ok.body.deliveryId]);
    const byEvent = await suite.api('GET', '/api/v1/webhooks/deliveries?event=room.started', { key: t.key });
    expect(byEvent.body.data.map((d: { id: string }) => d.id)).toEqual([failing.body.deliveryId]);
    expect((await suite.api('GET', '/api/v1/webhooks/deliveries?status=bogus', { key: t.key })).status).toBe(400);
    const other = await seedTenant();
    expect((await suite.api('GET', '/api/v1/webhooks/deliveries', { key: other.key })).body.data).toEqual([]);
    expect(
      (await suite.api('GET', `/api/v1/webhooks/deliveries/${ok.body.deliveryId}`, { key: other.key })).status,
    ).toBe(404);
    expect(
      (await suite.api('POST', `/api/v1/webhooks/deliveries/${ok.body.deliveryId}/replay`, { key: other.key })).status,
    ).toBe(404);
  });

  it('a delivery read while attempts land shows exactly the attempts its status and count say', async () => {
    const t = await tenantWithReceiver(() => ({ status: 500 }));
    const sent = await Promise.all(Array.from({ length: 8 }, () => test(t.key)));
    expect(sent.every((r) => r.status === 202)).toBe(true);
    let reads = 0;
    while (t.receiver.received.length < 8 * 6) {
      const res = await suite.api('GET', '/api/v1/webhooks/deliveries?limit=100', { key: t.key });
      if (res.status === 429) continue;
      reads++;
      for (const d of res.body.data as { status: string; attemptCount: number; attempts: unknown[] }[]) {
        expect({ status: d.status, attempts: d.attempts.length }).toEqual({
          status: d.status,
          attempts: d.attemptCount,
        });
        expect(d.status === 'pending').toBe(d.attemptCount === 0);
      }
    }
    expect(reads).toBeGreaterThan(10);
  });

  it('the test endpoint works with test-mode keys and needs a URL and tenant.manage', async () => {
    const sandbox = await tenantWithReceiver(undefined, { isTestMode: true });
    expect((await test(sandbox.key)).status).toBe(202);
    await sandbox.receiver.waitFor(1);
    const noUrl = await seedTenant();
    expect((await test(noUrl.key)).body.error.code).toBe('INVALID_STATE');
    const reader = await seedTenant({ webhookUrl: sandbox.receiver.url, keyPermissions: ['tenant.read'] });
    expect((await test(reader.key)).status).toBe(403);
    expect((await test(sandbox.key, 'no.such.event')).status).toBe(400);
  });
});

describe('restart safety', () => {
  it('a process killed mid-schedule loses nothing: the next process completes the delivery', async () => {
    const t = await tenantWithReceiver(() => ({ status: 503 }));
    // Slow schedule so the kill lands between attempts.
    await suite.app.stop();
    suite.app = await startApp({ ...suite.env, WEBHOOK_BACKOFF_BASE_MS: '1500' });
    const sent = await apiClient(suite.app.baseUrl)('POST', '/api/v1/webhooks/test', { key: t.key, body: {} });
    await t.receiver.waitFor(1);
    await suite.app.kill();
    t.receiver.setBehaviour(() => ({ status: 200 }));
    suite.app = await startApp(suite.env);
    suite.api = apiClient(suite.app.baseUrl);
    await expect
      .poll(
        async () => (await db().webhookDelivery.findUniqueOrThrow({ where: { id: sent.body.deliveryId } })).status,
        { timeout: 15_000 },
      )
      .toBe('DELIVERED');
    const ids = t.receiver.received.map((r) => r.headers['x-webhook-id']);
    expect(ids.filter((id) => id === sent.body.eventId).length).toBeGreaterThanOrEqual(2);
  }, 40_000);
});

describe('throughput', () => {
  it('a backlog of 300 drains once each: one attempt logged per delivery, never more than the tenant limit open', async () => {
    const t = await tenantWithReceiver();
    // Written straight into the outbox (as emitEvent writes them), all due at once.
    await sql().query(
      `WITH e AS (
         INSERT INTO "Event" (id, "tenantId", name, data, "occurredAt")
         SELECT 'evt_backlog_' || i, $1, 'webhook.test', json_build_object('i', i), now() AT TIME ZONE 'UTC'
         FROM generate_series(1, 300) i RETURNING id, "occurredAt"
       )
       INSERT INTO "WebhookDelivery" (id, "tenantId", "eventId", "eventName", url, status, "nextAttemptAt", "updatedAt")
       SELECT 'whd_' || e.id, $1, e.id, 'webhook.test', $2, 'PENDING', e."occurredAt", now() FROM e`,
      [t.tenant.id, t.receiver.url],
    );
    await t.receiver.waitFor(300, 30_000);
    await expect
      .poll(() => db().webhookDelivery.count({ where: { tenantId: t.tenant.id, status: 'DELIVERED' } }), {
        timeout: 10_000,
      })
      .toBe(300);
    const ids = t.receiver.received.map((r) => String(r.headers['x-webhook-id']));
    expect(new Set(ids).size).toBe(300);
    expect(t.receiver.maxConcurrent).toBeLessThanOrEqual(4);
    const attempts = await db().webhookAttempt.findMany({
      where: { delivery: { tenantId: t.tenant.id } },
      select: { deliveryId: true, responseStatus: true, error: true },
    });
    // Every request the receiver saw is a logged attempt: nothing was sent twice behind the log's
    // back (a lease that expired before its attempt was written would be).
    expect(ids.length).toBeLessThanOrEqual(attempts.length);
    // Each delivery succeeded exactly once.
    const delivered = attempts.filter((a) => a.responseStatus === 200 && !a.error);
    expect(delivered).toHaveLength(300);
    expect(new Set(delivered.map((a) => a.deliveryId)).size).toBe(300);
    // Any other attempt is one that timed out (300 ms in this suite, which a loaded machine can
    // miss) and was retried: at-least-once, as documented; receivers dedupe on the webhook id.
    const others = attempts.filter((a) => !(a.responseStatus === 200 && !a.error));
    expect(others.map((a) => a.error).filter((e) => !e?.startsWith('timeout after'))).toEqual([]);
    expect(others.length).toBeLessThan(30);
  }, 45_000);
});

describe('fairness', () => {
  it('a receiver that hangs does not hold up another tenant, and never has more than the tenant limit in flight', async () => {
    const slow = await tenantWithReceiver(() => 'hang');
    const fast = await tenantWithReceiver();
    for (let i = 0; i < 10; i++) await test(slow.key);
    await test(fast.key);
    // The fast tenant is served while the slow tenant's attempts are still timing out.
    await fast.receiver.waitFor(1, 5_000);
    // Several rounds of timeouts and retries later, the slow receiver has seen the limit (4), never more.
    await slow.receiver.waitFor(16, 10_000);
    expect(slow.receiver.maxConcurrent).toBe(4);
    const inFlight = await db().webhookDelivery.count({
      where: { tenantId: slow.tenant.id, leasedUntil: { gt: new Date() } },
    });
    expect(inFlight).toBeLessThanOrEqual(4);
  }, 20_000);
});
