import { route, auth } from '@/lib/http/route';
import { findOwnedTenant } from '@/lib/domain/providers';
import { tenantUsage } from '@/lib/domain/usage';
import { usageQuery, usageResponse } from '@/lib/domain/usage.schemas';

export const GET = route(
  {
    tag: 'Provider',
    summary: "An owned tenant's usage",
    auth: auth.provider,
    query: usageQuery,
    response: usageResponse,
  },
  async ({ auth, params, query }) => tenantUsage((await findOwnedTenant(auth.provider.id, params.id)).id, query),
);
