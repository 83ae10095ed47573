import { route, auth } from '@/lib/http/route';
import { tenantUsage } from '@/lib/domain/usage';
import { usageQuery, usageResponse } from '@/lib/domain/usage.schemas';

export const GET = route(
  {
    tag: 'Tenant',
    summary: 'Usage per day and month to date',
    auth: auth.tenant('tenant.read'),
    query: usageQuery,
    response: usageResponse,
  },
  ({ auth, query }) => tenantUsage(auth.tenant.id, query),
);
