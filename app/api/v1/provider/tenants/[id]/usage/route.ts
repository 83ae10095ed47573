import { route, auth } from '@/lib/http/route';
import { findOwnedTenant } from '@/lib/domain/providers';
import { tenantUsage } from '@/lib/domain/usage';
import { usageQuery } from '@/lib/domain/tenants.schemas';
import { usageResponse } from '@/lib/domain/responses.schemas';

export const GET = route(
  { auth: auth.provider, query: usageQuery, response: usageResponse },
  async ({ auth, params, query }) => tenantUsage((await findOwnedTenant(auth.provider.id, params.id)).id, query),
);
