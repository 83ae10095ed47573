import { route, auth } from '@/lib/http/route';
import { tenantUsage } from '@/lib/domain/usage';
import { usageQuery } from '@/lib/domain/tenants.schemas';
import { usageResponse } from '@/lib/domain/responses.schemas';

export const GET = route(
  { auth: auth.tenant('tenant.read'), query: usageQuery, response: usageResponse },
  ({ auth, query }) => tenantUsage(auth.tenant.id, query),
);
