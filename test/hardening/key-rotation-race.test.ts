import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

// A key is rotated once: 20 concurrent rotations of the same key make exactly one successor;
// every other call is 409 CONFLICT (or INVALID_STATE when it started after the first finished).
const suite = useSuite();

async function working(keys: string[]) {
  const statuses = await Promise.all(
    keys.map((key) => suite.api('GET', '/api/v1/tenant', { key }).then((r) => r.status)),
  );
  return statuses.filter((s) => s === 200).length;
}

describe('concurrent key rotation', () => {
  it('tenant POST /tenant/keys/rotate ×20 with a grace period: one successor, the rest 409', async () => {
    const t = await seedTenant({ plan: 'enterprise' });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        suite.api('POST', '/api/v1/tenant/keys/rotate', { key: t.key, body: { gracePeriodSeconds: 600 } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(['CONFLICT', 'INVALID_STATE']).toContain(r.body.error.code);
    }
    const successors = await db().apiKey.findMany({
      where: { tenantId: t.tenant.id, revokedAt: null, expiresAt: null },
    });
    expect(successors).toHaveLength(1);
    expect(await working(results.map((r) => r.body.plainTextKey).filter(Boolean))).toBe(1);
  });

  it("the provider's rotate ×20: one successor, the rest 409", async () => {
    const t = await seedTenant({ plan: 'enterprise' });
    const keyRow = await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id } });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/api-keys/${keyRow.id}/rotate`, {
          providerKey: t.providerKey,
          body: { gracePeriodSeconds: 600 },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await db().apiKey.count({ where: { tenantId: t.tenant.id, revokedAt: null, expiresAt: null } })).toBe(1);
  });
});
