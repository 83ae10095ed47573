import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinRoom } from '../support/rooms';
import { db } from '@/lib/db';
import { flushUsage, recordApiRequest, tenantUsage } from '@/lib/domain/usage';

const suite = useSuite();
type Seeded = Awaited<ReturnType<typeof seedTenant>>;
let a: Seeded; // provider A with a tenant
let b: Seeded; // provider B with a tenant

beforeAll(async () => {
  a = await seedTenant({ name: 'A tenant' });
  b = await seedTenant({ name: 'B tenant' });
});

const prov = (method: string, path: string, body?: unknown, key = a.providerKey) =>
  suite.api(method, `/api/v1/provider${path}`, { providerKey: key, body });

describe('provider API', () => {
  it('provisions a tenant and returns its first key and webhook secret once', async () => {
    const res = await prov('POST', '/tenants', {
      name: 'Newco',
      plan: 'growth',
      entitlementOverrides: { maxParticipantsPerRoom: 300 },
      frameAncestors: ['https://app.newco.com'],
    });
    expect(res.status).toBe(201);
    expect(res.body.tenant).toMatchObject({
      name: 'Newco',
      plan: 'growth',
      isTestMode: false,
      status: 'ACTIVE',
      resolvedLimits: { maxParticipantsPerRoom: 300, concurrentLiveRooms: 250 },
    });
    expect(res.body.apiKey.plainTextKey).toMatch(/^cv_live_[0-9A-Za-z]{40}$/);
    expect(res.body.webhookSecret).toMatch(/^whsec_/);
    const key = res.body.apiKey.plainTextKey;
    expect((await suite.api('GET', '/api/v1/tenant', { key })).body.id).toBe(res.body.tenant.id);
    const again = await prov('GET', `/tenants/${res.body.tenant.id}`);
    expect(again.text).not.toContain(key);
    expect(again.text).not.toContain(res.body.webhookSecret);
    const keys = await prov('GET', `/tenants/${res.body.tenant.id}/api-keys`);
    expect(keys.body.data[0].hint).toBe(`cv_live_…${key.slice(-4)}`);
    expect(keys.text).not.toContain(key);
  });

  it('a sandbox tenant issues only cv_test_ keys', async () => {
    const res = await prov('POST', '/tenants', { name: 'Sandbox', isTestMode: true });
    expect(res.body.tenant).toMatchObject({ isTestMode: true, plan: 'sandbox' });
    expect(res.body.apiKey.plainTextKey).toMatch(/^cv_test_/);
    const more = await prov('POST', `/tenants/${res.body.tenant.id}/api-keys`, { name: 'ci' });
    expect(more.body.plainTextKey).toMatch(/^cv_test_/);
    expect(more.body.mode).toBe('test');
  });

  it('refuses bad provisioning input', async () => {
    expect((await prov('POST', '/tenants', {})).body.error.details[0].field).toBe('name');
    expect((await prov('POST', '/tenants', { name: 'x', plan: 'platinum' })).status).toBe(400);
    expect((await prov('POST', '/tenants', { name: 'x', entitlementOverrides: { bogusLimit: 1 } })).status).toBe(400);
    expect(
      (await prov('POST', '/tenants', { name: 'x', entitlementOverrides: { concurrentLiveRooms: -1 } })).status,
    ).toBe(400);
    expect((await prov('POST', '/tenants', { name: 'x', webhookEvents: ['nope'] })).status).toBe(400);
    expect((await prov('POST', '/tenants', { name: 'x', frameAncestors: ['not an origin'] })).status).toBe(400);
  });

  it('lists only owned tenants, paginated', async () => {
    const list = await prov('GET', '/tenants?limit=100');
    const ids = list.body.data.map((t: { id: string }) => t.id);
    expect(ids).toContain(a.tenant.id);
    expect(ids).not.toContain(b.tenant.id);
    const one = await prov('GET', '/tenants?limit=1');
    expect(one.body.data).toHaveLength(1);
    expect(one.body.nextCursor).not.toBeNull();
  });

  it('provider A cannot see, patch, rotate or revoke provider B tenants (404)', async () => {
    const bKey = await db().apiKey.findFirstOrThrow({ where: { tenantId: b.tenant.id } });
    for (const [method, path, body] of [
      ['GET', `/tenants/${b.tenant.id}`],
      ['PATCH', `/tenants/${b.tenant.id}`, { plan: 'enterprise' }],
      ['GET', `/tenants/${b.tenant.id}/api-keys`],
      ['POST', `/tenants/${b.tenant.id}/api-keys`, {}],
      ['DELETE', `/tenants/${b.tenant.id}/api-keys/${bKey.id}`],
      ['POST', `/tenants/${b.tenant.id}/api-keys/${bKey.id}/rotate`, {}],
      ['POST', `/tenants/${b.tenant.id}/webhook-secret/rotate`, {}],
      ['GET', `/tenants/${b.tenant.id}/usage`],
    ] as const) {
      const res = await prov(method, path, body);
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    expect((await db().tenant.findUniqueOrThrow({ where: { id: b.tenant.id } })).plan).toBe('starter');
    // A's key id under A's tenant path is fine; B's key id under A's tenant is 404.
    expect((await prov('DELETE', `/tenants/${a.tenant.id}/api-keys/${bKey.id}`)).status).toBe(404);
  });

  it('provider keys are refused on tenant endpoints and tenant keys on provider endpoints', async () => {
    expect((await suite.api('GET', '/api/v1/provider/tenants', { providerKey: a.key })).status).toBe(401);
    expect((await suite.api('GET', '/api/v1/provider/tenants', { key: a.key })).status).toBe(401);
    expect((await suite.api('GET', '/api/v1/tenant', { key: a.providerKey })).status).toBe(401);
  });

  it('plan and overrides change resolved limits and their enforcement; null clears overrides', async () => {
    const t = await seedTenant({ providerId: a.provider.id });
    const create = (max: number) =>
      suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u', maxParticipants: max } });
    expect((await create(60)).body.error.code).toBe('PLAN_LIMIT_REACHED');
    const patched = await prov('PATCH', `/tenants/${t.tenant.id}`, {
      entitlementOverrides: { maxParticipantsPerRoom: 60 },
    });
    expect(patched.body.resolvedLimits.maxParticipantsPerRoom).toBe(60);
    expect((await create(60)).status).toBe(201);
    const upgraded = await prov('PATCH', `/tenants/${t.tenant.id}`, { plan: 'enterprise', entitlementOverrides: null });
    expect(upgraded.body).toMatchObject({
      plan: 'enterprise',
      entitlementOverrides: {},
      resolvedLimits: { maxParticipantsPerRoom: 1000 },
    });
    expect((await create(900)).status).toBe(201);
  });

  it('suspends and reactivates a tenant: every tenant-key call is 403 while suspended', async () => {
    const t = await seedTenant({ providerId: a.provider.id });
    await prov('PATCH', `/tenants/${t.tenant.id}`, { status: 'SUSPENDED' });
    const res = await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } });
    expect([res.status, res.body.error.code]).toEqual([403, 'TENANT_SUSPENDED']);
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).status).toBe(403);
    await prov('PATCH', `/tenants/${t.tenant.id}`, { status: 'ACTIVE' });
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).status).toBe(200);
  });
});

describe('API keys', () => {
  it('a provider creates a scoped key, revokes it (401 at once), and revoking twice is 404', async () => {
    const t = await seedTenant({ providerId: a.provider.id });
    const created = await prov('POST', `/tenants/${t.tenant.id}/api-keys`, {
      name: 'reader',
      permissions: ['rooms.read'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'reader', permissions: ['rooms.read'], status: 'active' });
    const key = created.body.plainTextKey;
    expect((await suite.api('GET', '/api/v1/rooms', { key })).status).toBe(200);
    expect((await suite.api('POST', '/api/v1/rooms', { key, body: { createdByExternalId: 'u' } })).status).toBe(403);
    expect((await prov('DELETE', `/tenants/${t.tenant.id}/api-keys/${created.body.id}`)).body.status).toBe('revoked');
    expect((await suite.api('GET', '/api/v1/rooms', { key })).status).toBe(401);
    expect((await prov('DELETE', `/tenants/${t.tenant.id}/api-keys/${created.body.id}`)).status).toBe(404);
    expect((await prov('POST', `/tenants/${t.tenant.id}/api-keys`, { permissions: ['everything'] })).status).toBe(400);
  });

  it('tenant self-rotation: new key carries scope and mode; the old key works until exactly the grace period ends', async () => {
    const t = await seedTenant({ isTestMode: true, keyPermissions: ['tenant.read', 'tenant.manage', 'rooms.read'] });
    const res = await suite.api('POST', '/api/v1/tenant/keys/rotate', {
      key: t.key,
      body: { gracePeriodSeconds: 600 },
    });
    expect(res.status).toBe(200);
    expect(res.body.plainTextKey).toMatch(/^cv_test_/);
    expect(res.body.apiKey.permissions).toEqual(['tenant.read', 'tenant.manage', 'rooms.read']);
    expect(res.body.previousKey.status).toBe('expiring');
    const expiresAt = new Date(res.body.previousKey.expiresAt).getTime();
    expect(Math.abs(expiresAt - (Date.now() + 600_000))).toBeLessThan(5_000);
    expect((await suite.api('GET', '/api/v1/tenant', { key: res.body.plainTextKey })).status).toBe(200);
    // Inside the window: still valid.
    await db().apiKey.update({
      where: { id: res.body.previousKey.id },
      data: { expiresAt: new Date(Date.now() + 10_000) },
    });
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).status).toBe(200);
    // Just past it: refused. This edit bypasses the app, so its key cache hears of it by NOTIFY,
    // a few ms later (lib/runtime/credential-cache.ts): wait for that, not a fixed moment.
    await db().apiKey.update({ where: { id: res.body.previousKey.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expect
      .poll(async () => (await suite.api('GET', '/api/v1/tenant', { key: t.key })).status, { timeout: 5_000 })
      .toBe(401);
    const listed = await suite.api('GET', '/api/v1/tenant/keys', { key: res.body.plainTextKey });
    expect(listed.body.data.map((k: { status: string }) => k.status).sort()).toEqual(['active', 'expired']);
  });

  it('grace 0 revokes at once; bounds on gracePeriodSeconds are enforced; a rotated-out key cannot rotate again', async () => {
    const t = await seedTenant();
    for (const bad of [-1, 604_801, 1.5, '60']) {
      const r = await suite.api('POST', '/api/v1/tenant/keys/rotate', {
        key: t.key,
        body: { gracePeriodSeconds: bad },
      });
      expect([bad, r.status]).toEqual([bad, 400]);
    }
    const first = await suite.api('POST', '/api/v1/tenant/keys/rotate', {
      key: t.key,
      body: { gracePeriodSeconds: 60 },
    });
    const again = await suite.api('POST', '/api/v1/tenant/keys/rotate', {
      key: t.key,
      body: { gracePeriodSeconds: 60 },
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_STATE']);
    const now = await suite.api('POST', '/api/v1/tenant/keys/rotate', {
      key: first.body.plainTextKey,
      body: { gracePeriodSeconds: 0 },
    });
    expect(now.body.previousKey.status).toBe('revoked');
    expect((await suite.api('GET', '/api/v1/tenant', { key: first.body.plainTextKey })).status).toBe(401);
    expect((await suite.api('GET', '/api/v1/tenant', { key: now.body.plainTextKey })).status).toBe(200);
  });

  it('a provider rotates an owned tenant key with a grace period', async () => {
    const t = await seedTenant({ providerId: a.provider.id });
    const keyRow = await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id } });
    const res = await prov('POST', `/tenants/${t.tenant.id}/api-keys/${keyRow.id}/rotate`, { gracePeriodSeconds: 120 });
    expect(res.body.plainTextKey).toMatch(/^cv_live_/);
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).status).toBe(200);
    expect((await suite.api('GET', '/api/v1/tenant', { key: res.body.plainTextKey })).status).toBe(200);
  });
});

describe('usage', () => {
  it('reports API requests and participant-minutes per day, for the tenant and its provider', async () => {
    const t = await seedTenant({ providerId: a.provider.id });
    for (let i = 0; i < 3; i++) await suite.api('GET', '/api/v1/tenant', { key: t.key });
    const room = await createRoom(suite, t.key, { createdByExternalId: 'u' });
    const p = (await joinRoom(suite, t.key, room.id, { externalUserId: 'x', displayName: 'X' })).participant;
    await db().participant.update({
      where: { id: p.id },
      data: { joinedAt: new Date(Date.now() - 600_000), leftAt: new Date(), duration: 600 },
    });
    // The app process flushes its request counters every few seconds.
    await expect
      .poll(async () => (await suite.api('GET', '/api/v1/tenant/usage', { key: t.key })).body.monthToDate.apiRequests, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(6);
    const usage = await suite.api('GET', '/api/v1/tenant/usage', { key: t.key });
    const today = usage.body.data.at(-1);
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today.participantMinutes).toBe(10);
    expect(usage.body.data).toHaveLength(30);
    const viaProvider = await prov('GET', `/tenants/${t.tenant.id}/usage`);
    expect(viaProvider.body.data.at(-1).participantMinutes).toBe(10);
    expect((await suite.api('GET', '/api/v1/tenant/usage?from=yesterday', { key: t.key })).status).toBe(400);
  });

  it('a read while the timer’s flush is being written counts what that flush holds', async () => {
    const t = await seedTenant({ providerId: a.provider.id });
    const tenantId = t.tenant.id;
    await db().$executeRaw`
      INSERT INTO "UsageCounter" ("tenantId", "day", "metric", "value")
      VALUES (${tenantId}, ${new Date().toISOString().slice(0, 10)}::date, 'api_requests', 0)`;
    // The counter row locked by another writer, so the timer's flush takes a while to land.
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = new Promise<void>((r) => (release = r));
    const lock = db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "UsageCounter" WHERE "tenantId" = ${tenantId} FOR UPDATE`;
        locked();
        await held;
      },
      { timeout: 10_000 },
    );
    await isLocked;
    for (let i = 0; i < 3; i++) recordApiRequest(tenantId);
    const timerFlush = flushUsage(); // as the 5-s timer does: its counts leave memory before they are written
    const read = tenantUsage(tenantId, {});
    setTimeout(release, 300);
    expect((await read).monthToDate.apiRequests).toBe(3);
    await Promise.all([timerFlush, lock]);
  });
});
