import { route, auth } from '@/lib/http/route';
import { tenantView } from '@/lib/domain/tenants';
import { tenantResponse } from '@/lib/domain/tenants.schemas';

export const GET = route(
  {
    tag: 'Tenant',
    summary: 'Read the tenant: plan, resolved limits, webhook configuration',
    auth: auth.tenant('tenant.read'),
    response: tenantResponse,
  },
  async ({ auth }) => tenantView(auth.tenant),
);
