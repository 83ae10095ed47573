import { db } from '../lib/db';
import { randomBytes } from 'node:crypto';
import { createProviderWithKey, provisionTenant } from '../lib/domain/tenants';
import { createConsoleUser } from '../lib/domain/console';

/** A tenant whose limits do not get in the way of measuring the service itself. */
export async function seedTenantForBench(webhookUrl: string) {
  return db().$transaction(async (tx) => {
    const { provider } = await createProviderWithKey('Bench Provider', { tx });
    const t = await provisionTenant(
      {
        name: 'Bench Tenant',
        providerId: provider.id,
        plan: 'enterprise',
        webhookUrl,
        // The API phases measure the API: their room.* events are recorded but not delivered (else the
        // runner would be delivering thousands of them while the join is measured). The webhook phase
        // emits its own events with force, which bypasses the filter.
        webhookEvents: ['webhook.test'],
        entitlementOverrides: {
          apiRequestsPerSecond: 1_000_000,
          concurrentLiveRooms: 1_000_000,
          maxParticipantsPerRoom: 10_000,
        },
      },
      { tx },
    );
    const console = { email: 'bench@convene.dev', password: randomBytes(12).toString('base64url') };
    await createConsoleUser({ ...console, role: 'OWNER', tenantId: t.tenant.id }, { tx });
    return { key: t.plainTextKey, tenantId: t.tenant.id, console };
  });
}
