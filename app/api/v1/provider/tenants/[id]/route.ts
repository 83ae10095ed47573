import { route, auth } from '@/lib/http/route';
import { getOwnedTenant, updateOwnedTenant } from '@/lib/domain/providers';
import { updateTenantInput } from '@/lib/domain/tenants.schemas';
import { tenantResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.provider, response: tenantResponse }, ({ auth, params }) =>
  getOwnedTenant(auth.provider, params.id),
);

export const PATCH = route(
  { auth: auth.provider, body: updateTenantInput, response: tenantResponse },
  ({ auth, params, body }) => updateOwnedTenant(auth.provider, params.id, body),
);
