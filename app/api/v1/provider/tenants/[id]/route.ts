import { route, auth } from '@/lib/http/route';
import { getOwnedTenant, updateOwnedTenant } from '@/lib/domain/providers';
import { updateTenantInput, tenantResponse } from '@/lib/domain/tenants.schemas';

export const GET = route(
  { tag: 'Provider', summary: 'Get an owned tenant', auth: auth.provider, response: tenantResponse },
  ({ auth, params }) => getOwnedTenant(auth.provider, params.id),
);

export const PATCH = route(
  {
    tag: 'Provider',
    summary: 'Update plan, overrides, status, branding',
    auth: auth.provider,
    body: updateTenantInput,
    response: tenantResponse,
  },
  ({ auth, params, body }) => updateOwnedTenant(auth.provider, params.id, body),
);
