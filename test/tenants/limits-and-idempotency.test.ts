import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { ApiError } from '@/lib/errors';

const suite = useSuite();

describe('rate limits', () => {
  it('a burst past the key limit gets 429 with Retry-After and x-ratelimit-* headers', async () => {
    const t = await seedTenant({ entitlementOverrides: { apiRequestsPerSecond: 3 } });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => suite.api('GET', '/api/v1/tenant', { key: t.key })),
    );
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(3);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited[0].body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited[0].headers.get('x-ratelimit-remaining')).toBe('0');
    // Another key of another tenant is unaffected.
    const other = await seedTenant();
    expect((await suite.api('GET', '/api/v1/tenant', { key: other.key })).status).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  const create = (key: string, idem: string, name = 'Daily') =>
    suite.api('POST', '/api/v1/rooms', {
      key,
      headers: { 'idempotency-key': idem },
      body: { createdByExternalId: 'u', name },
    });

  it('the same key and body replays the first response; no second room is created', async () => {
    const t = await seedTenant();
    const first = await create(t.key, 'idem-1');
    const second = await create(t.key, 'idem-1');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await db().room.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });

  it('the same key with another body is 409 CONFLICT', async () => {
    const t = await seedTenant();
    await create(t.key, 'idem-2', 'One');
    const res = await create(t.key, 'idem-2', 'Two');
    expect([res.status, res.body.error.code]).toEqual([409, 'CONFLICT']);
  });

  it('keys are scoped per credential; 4xx answers are replayed too', async () => {
    const t1 = await seedTenant();
    const t2 = await seedTenant();
    expect((await create(t1.key, 'shared')).status).toBe(201);
    expect((await create(t2.key, 'shared')).status).toBe(201);
    const bad = () =>
      suite.api('POST', '/api/v1/rooms', {
        key: t1.key,
        headers: { 'idempotency-key': 'bad-1' },
        body: { name: 'no creator' },
      });
    const first = await bad();
    const again = await bad();
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('concurrent requests with one key create exactly one room', async () => {
    const t = await seedTenant();
    const results = await Promise.all(Array.from({ length: 5 }, () => create(t.key, 'race')));
    expect(results.every((r) => r.status === 201 || (r.status === 409 && r.body.error.code === 'CONFLICT'))).toBe(true);
    expect(await db().room.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });
});

describe('test mode and billable media', () => {
  it('refuses billable media for test-mode tenants before anything else', async () => {
    const sandbox = (await seedTenant({ isTestMode: true })).tenant;
    const live = (await seedTenant({ plan: 'starter' })).tenant;
    const codeOf = (fn: () => void) => {
      try {
        fn();
        return null;
      } catch (err) {
        return (err as ApiError).code;
      }
    };
    for (const feature of ['recording', 'streaming', 'captions', 'transcripts'] as const) {
      expect(codeOf(() => assertBillableMediaAllowed(sandbox, feature))).toBe('TEST_MODE_MEDIA_DISABLED');
      expect(codeOf(() => assertBillableMediaAllowed(live, feature))).toBeNull();
    }
    expect(codeOf(() => assertBillableMediaAllowed(live, 'recording', 1_000))).toBe('PLAN_LIMIT_REACHED');
    const noMinutes = (await seedTenant({ entitlementOverrides: { streamingMinutesPerMonth: 0 } })).tenant;
    expect(codeOf(() => assertBillableMediaAllowed(noMinutes, 'streaming'))).toBe('PLAN_LIMIT_REACHED');
  });

  it('a live key never reaches a test tenant and vice versa', async () => {
    const sandbox = await seedTenant({ isTestMode: true });
    const live = await seedTenant();
    const room = (await suite.api('POST', '/api/v1/rooms', { key: sandbox.key, body: { createdByExternalId: 'u' } }))
      .body;
    expect((await suite.api('GET', `/api/v1/rooms/${room.id}`, { key: live.key })).status).toBe(404);
    const join = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: sandbox.key,
      body: { externalUserId: 'x', displayName: 'X' },
    });
    expect(join.body.token).toEqual(expect.any(String));
  });
});
