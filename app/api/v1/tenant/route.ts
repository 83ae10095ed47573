import { route, auth } from '@/lib/http/route';
import { tenantView } from '@/lib/domain/tenants';
import { tenantResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('tenant.read'), response: tenantResponse }, async ({ auth }) =>
  tenantView(auth.tenant),
);
