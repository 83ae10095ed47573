import { db } from '@/lib/db';
import { notFound } from '@/lib/http/errors';

/** A provider sees only the tenants it owns; any other id is 404. */
export async function findOwnedTenant(providerId: string, tenantId: string) {
  const tenant = await db().tenant.findFirst({ where: { id: tenantId, providerId } });
  if (!tenant) throw notFound('Tenant');
  return tenant;
}
