import { describe, expect, it, beforeAll } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { apiClient, startApp } from '../support/app';
import { db } from '@/lib/db';
import { generateKey } from '@/lib/domain/keys';

const suite = useSuite();

function expectEnvelope(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.requestId).toMatch(/^req_/);
  expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
}

describe('health', () => {
  it('answers when the database is reachable', async () => {
    const res = await suite.api('GET', '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('database unreachable', () => {
  it('every route answers 503 SERVICE_UNAVAILABLE with the envelope, not a 500', async () => {
    const app = await startApp({
      ...suite.env,
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
      QUEUE_WORKERS: 'false',
    });
    try {
      const api = apiClient(app.baseUrl);
      expectEnvelope(await api('GET', '/api/v1/health'), 503, 'SERVICE_UNAVAILABLE');
      expectEnvelope(
        await api('GET', '/api/v1/tenant', { key: 'cv_live_0123456789012345678901234567890123456789' }),
        503,
        'SERVICE_UNAVAILABLE',
      );
      expectEnvelope(
        await api('POST', '/api/v1/rooms', {
          key: 'cv_live_0123456789012345678901234567890123456789',
          body: { createdByExternalId: 'u' },
        }),
        503,
        'SERVICE_UNAVAILABLE',
      );
    } finally {
      await app.stop();
    }
    // ...and the API reference says so for every operation.
    const doc = (await suite.api('GET', '/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const undocumented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !op.responses['503'])
        .map(([m]) => `${m} ${path}`),
    );
    expect(undocumented).toEqual([]);
  }, 60_000);
});

describe('tenant key authentication', () => {
  let live: Awaited<ReturnType<typeof seedTenant>>;
  beforeAll(async () => {
    live = await seedTenant({ name: 'Acme', webhookUrl: 'https://hooks.example.com/convene' });
  });

  it('reads the tenant with a valid key and never returns secrets', async () => {
    const res = await suite.api('GET', '/api/v1/tenant', { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: live.tenant.id,
      name: 'Acme',
      plan: 'starter',
      isTestMode: false,
      status: 'ACTIVE',
    });
    expect(res.body.resolvedLimits.maxParticipantsPerRoom).toBe(50);
    expect(res.body.webhook).toEqual({
      url: 'https://hooks.example.com/convene',
      events: null,
      secretConfigured: true,
      previousSecretExpiresAt: null,
    });
    expect(res.text).not.toContain(live.webhookSecret);
    expect(res.text).not.toContain(live.key);
    expect(res.text).not.toMatch(/whsec_|keyHash|Encrypted/);
  });

  // The key rows are written by this process, not the app: the app learns of it through
  // PostgreSQL's NOTIFY, which races the next request by milliseconds (see
  // credential-cache.test.ts), so allow that moment.
  async function expectRefusedWithinASecond(key: string) {
    await expect
      .poll(async () => (await suite.api('GET', '/api/v1/tenant', { key })).status, { timeout: 1000, interval: 20 })
      .toBe(401);
    expectEnvelope(await suite.api('GET', '/api/v1/tenant', { key }), 401, 'UNAUTHENTICATED');
  }

  it('missing key → 401', async () => {
    expectEnvelope(await suite.api('GET', '/api/v1/tenant'), 401, 'UNAUTHENTICATED');
  });

  it('malformed key → 401', async () => {
    expectEnvelope(await suite.api('GET', '/api/v1/tenant', { key: 'not-a-key' }), 401, 'UNAUTHENTICATED');
  });

  it('well-formed but unknown key → 401', async () => {
    expectEnvelope(
      await suite.api('GET', '/api/v1/tenant', { key: generateKey('live').plaintext }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('expired key → 401, and a key expiring later still works', async () => {
    const t = await seedTenant();
    await db().apiKey.updateMany({
      where: { tenantId: t.tenant.id },
      data: { expiresAt: new Date(Date.now() + 60_000) },
    });
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).status).toBe(200);
    await db().apiKey.updateMany({
      where: { tenantId: t.tenant.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expectRefusedWithinASecond(t.key);
  });

  it('a revoked key → 401 (within a second, through NOTIFY)', async () => {
    const t = await seedTenant();
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).status).toBe(200);
    await db().apiKey.updateMany({ where: { tenantId: t.tenant.id }, data: { revokedAt: new Date() } });
    await expectRefusedWithinASecond(t.key);
  });

  it('a provider key on a tenant endpoint → 401', async () => {
    const res = await suite.api('GET', '/api/v1/tenant', { key: live.providerKey });
    expectEnvelope(res, 401, 'UNAUTHENTICATED');
    expect(res.body.error.message).toMatch(/provider key/i);
  });

  it('a key without the permission → 403', async () => {
    const t = await seedTenant({ keyPermissions: ['rooms.read'] });
    expectEnvelope(await suite.api('GET', '/api/v1/tenant', { key: t.key }), 403, 'FORBIDDEN');
  });

  it('a test key whose mode disagrees with its tenant is refused', async () => {
    const sandbox = await seedTenant({ isTestMode: true });
    expect(sandbox.key.startsWith('cv_test_')).toBe(true);
    expect((await suite.api('GET', '/api/v1/tenant', { key: sandbox.key })).status).toBe(200);
    await db().tenant.update({ where: { id: sandbox.tenant.id }, data: { isTestMode: false } });
    await expect
      .poll(async () => (await suite.api('GET', '/api/v1/tenant', { key: sandbox.key })).status, {
        timeout: 1000,
        interval: 20,
      })
      .toBe(401);
    expectEnvelope(await suite.api('GET', '/api/v1/tenant', { key: sandbox.key }), 401, 'UNAUTHENTICATED');
  });

  it('suspended tenant → 403 TENANT_SUSPENDED', async () => {
    const t = await seedTenant();
    await db().tenant.update({ where: { id: t.tenant.id }, data: { status: 'SUSPENDED' } });
    expectEnvelope(await suite.api('GET', '/api/v1/tenant', { key: t.key }), 403, 'TENANT_SUSPENDED');
  });

  it('updates lastUsedAt after use', async () => {
    const t = await seedTenant();
    await suite.api('GET', '/api/v1/tenant', { key: t.key });
    await expect
      .poll(async () => (await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id } })).lastUsedAt)
      .not.toBeNull();
  });

  it('every guarded response carries rate-limit headers', async () => {
    const res = await suite.api('GET', '/api/v1/tenant', { key: live.key });
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(50);
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(res.headers.get('x-ratelimit-reset')).not.toBeNull();
  });
});

describe('secrets stay out of logs', () => {
  it('the app output never contains a key that was used', async () => {
    const t = await seedTenant();
    await suite.api('GET', '/api/v1/tenant', { key: t.key });
    await suite.api('GET', '/api/v1/tenant', { key: t.key.slice(0, -1) + 'x' });
    expect(suite.app.output()).toContain('"route":"/api/v1/tenant"');
    expect(suite.app.output()).not.toContain(t.key.slice(8));
  });
});
