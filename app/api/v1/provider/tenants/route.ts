import { route, auth } from '@/lib/http/route';
import { listOwnedTenants, provisionOwnedTenant } from '@/lib/domain/providers';
import {
  provisionTenantInput,
  tenantListQuery,
  provisionedTenantResponse,
  tenantPage,
} from '@/lib/domain/tenants.schemas';

export const POST = route(
  {
    tag: 'Provider',
    summary: 'Provision a tenant (first key shown once)',
    auth: auth.provider,
    body: provisionTenantInput,
    status: 201,
    response: provisionedTenantResponse,
  },
  ({ auth, body }) => provisionOwnedTenant(auth.provider, body),
);

export const GET = route(
  { tag: 'Provider', summary: 'List owned tenants', auth: auth.provider, query: tenantListQuery, response: tenantPage },
  ({ auth, query }) => listOwnedTenants(auth.provider, query),
);
