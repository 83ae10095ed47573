import { db } from '@/lib/db';
import { createProviderWithKey, provisionTenant } from '@/lib/domain/tenants';

export interface SeedResult {
  created: boolean;
  providerKey?: string;
  liveTenant?: { id: string; apiKey: string; webhookSecret: string };
  sandboxTenant?: { id: string; apiKey: string; webhookSecret: string };
}

/**
 * First start on an empty database: one provider owning one live and one sandbox tenant.
 * Their keys exist in plaintext only in what this returns.
 */
export async function seedIfEmpty(): Promise<SeedResult> {
  if ((await db().provider.count()) > 0) return { created: false };
  return db().$transaction(async (tx) => {
    const { provider, plainTextKey } = await createProviderWithKey(tx, 'Demo Provider');
    const live = await provisionTenant(tx, { name: 'Demo Live Tenant', providerId: provider.id, plan: 'growth' });
    const sandbox = await provisionTenant(tx, { name: 'Demo Sandbox Tenant', providerId: provider.id, isTestMode: true });
    return {
      created: true,
      providerKey: plainTextKey,
      liveTenant: { id: live.tenant.id, apiKey: live.plainTextKey, webhookSecret: live.webhookSecret },
      sandboxTenant: { id: sandbox.tenant.id, apiKey: sandbox.plainTextKey, webhookSecret: sandbox.webhookSecret },
    };
  });
}
