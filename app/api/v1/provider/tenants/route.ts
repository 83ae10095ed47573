import { route, auth } from '@/lib/http/route';
import { listOwnedTenants, provisionOwnedTenant } from '@/lib/domain/providers';
import { provisionTenantInput, tenantListQuery } from '@/lib/domain/tenants.schemas';
import { provisionedTenantResponse, tenantPage } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.provider, body: provisionTenantInput, status: 201, response: provisionedTenantResponse },
  ({ auth, body }) => provisionOwnedTenant(auth.provider, body),
);

export const GET = route({ auth: auth.provider, query: tenantListQuery, response: tenantPage }, ({ auth, query }) =>
  listOwnedTenants(auth.provider, query),
);
