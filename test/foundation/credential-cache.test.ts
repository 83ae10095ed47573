import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { useSuite, seedTenant } from '../support/suite';
import { createTenantApiKey } from '@/lib/domain/keys';

// API key lookups are cached per app process and dropped when PostgreSQL NOTIFYs a change. The
// changes below are made with plain SQL from this test process, not through the app, so only the
// database triggers can tell the app about them.
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const suite = useSuite({ env: () => ({ METRICS_TOKEN }) });

async function sql(text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: suite.database.url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function cacheCount(result: 'hit' | 'miss'): Promise<number> {
  const text = (await suite.api('GET', '/api/v1/metrics', { bearer: METRICS_TOKEN })).text;
  const line = text.split('\n').find((l) => l.startsWith(`convene_credential_cache_total{result="${result}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

const tenantStatus = (key: string) => suite.api('GET', '/api/v1/tenant', { key }).then((r) => r.status);

describe('credential cache', () => {
  it('answers repeated requests from the cache', async () => {
    const t = await seedTenant();
    await tenantStatus(t.key); // the listener connects on first use
    await expect
      .poll(async () => {
        const before = await cacheCount('hit');
        for (let i = 0; i < 5; i++) expect(await tenantStatus(t.key)).toBe(200);
        return (await cacheCount('hit')) - before;
      })
      .toBeGreaterThanOrEqual(4);
  });

  it('a key revoked by any writer stops working at once', async () => {
    const t = await seedTenant();
    for (let i = 0; i < 3; i++) expect(await tenantStatus(t.key)).toBe(200);
    await sql('UPDATE "ApiKey" SET "revokedAt" = now() WHERE "tenantId" = $1', [t.tenant.id]);
    // Within a second (the NOTIFY), not the cache's 60 s lifetime.
    await expect.poll(() => tenantStatus(t.key), { timeout: 1000, interval: 20 }).toBe(401);
  });

  it('a tenant suspended by any writer is refused at once', async () => {
    const t = await seedTenant();
    for (let i = 0; i < 3; i++) expect(await tenantStatus(t.key)).toBe(200);
    await sql(`UPDATE "Tenant" SET status = 'SUSPENDED' WHERE id = $1`, [t.tenant.id]);
    await expect.poll(() => tenantStatus(t.key), { timeout: 1000, interval: 20 }).toBe(403);
  });

  it('while the LISTEN connection is down nothing is cached, and caching resumes when it is back', async () => {
    const t = await seedTenant();
    const second = await createTenantApiKey(t.tenant, { name: 'second' });
    for (let i = 0; i < 3; i++) expect(await tenantStatus(second.plainTextKey)).toBe(200);
    const killed = await sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'convene-credential-cache' AND datname = current_database()`,
    );
    expect(killed.length).toBe(1);
    // The app may not have noticed the lost connection yet when this lands; it must still refuse.
    await sql('UPDATE "ApiKey" SET "revokedAt" = now() WHERE id = $1', [second.id]);
    await expect.poll(() => tenantStatus(second.plainTextKey), { timeout: 1000, interval: 20 }).toBe(401);
    // Reconnected: hits grow again.
    await expect
      .poll(
        async () => {
          const before = await cacheCount('hit');
          await tenantStatus(t.key);
          await tenantStatus(t.key);
          return (await cacheCount('hit')) - before;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(1);
  });
});
