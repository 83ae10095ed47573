import { db } from '@/lib/db';
import { randomBytes } from 'node:crypto';
import { createProviderWithKey, provisionTenant } from '@/lib/domain/tenants';
import { createConsoleUser } from '@/lib/domain/console';

interface SeedResult {
  created: boolean;
  providerKey?: string;
  liveTenant?: { id: string; apiKey: string; webhookSecret: string };
  sandboxTenant?: { id: string; apiKey: string; webhookSecret: string };
  consoleUsers?: { email: string; password: string; role: string; of: string }[];
}

const password = () => randomBytes(12).toString('base64url');

/**
 * First start on an empty database: one provider owning one live and one sandbox tenant.
 * Their keys exist in plaintext only in what this returns.
 */
export async function seedIfEmpty(): Promise<SeedResult> {
  if ((await db().provider.count()) > 0) return { created: false };
  return db().$transaction(async (tx) => {
    const { provider, plainTextKey } = await createProviderWithKey('Demo Provider', { tx });
    const live = await provisionTenant({ name: 'Demo Live Tenant', providerId: provider.id, plan: 'growth' }, { tx });
    const sandbox = await provisionTenant(
      {
        name: 'Demo Sandbox Tenant',
        providerId: provider.id,
        isTestMode: true,
      },
      { tx },
    );
    const consoleUsers = [
      { email: 'owner@demo.convene.dev', role: 'OWNER' as const, tenantId: live.tenant.id, of: 'Demo Live Tenant' },
      { email: 'viewer@demo.convene.dev', role: 'VIEWER' as const, tenantId: live.tenant.id, of: 'Demo Live Tenant' },
      { email: 'reseller@demo.convene.dev', role: 'OWNER' as const, providerId: provider.id, of: 'Demo Provider' },
    ].map((u) => ({ ...u, password: password() }));
    for (const u of consoleUsers) await createConsoleUser(u, { tx });
    return {
      created: true,
      consoleUsers: consoleUsers.map(({ email, password, role, of }) => ({ email, password, role, of })),
      providerKey: plainTextKey,
      liveTenant: { id: live.tenant.id, apiKey: live.plainTextKey, webhookSecret: live.webhookSecret },
      sandboxTenant: { id: sandbox.tenant.id, apiKey: sandbox.plainTextKey, webhookSecret: sandbox.webhookSecret },
    };
  });
}
