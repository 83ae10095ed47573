import { route, auth } from '@/lib/http/route';
import { listOwnedTenants, provisionOwnedTenant } from '@/lib/domain/providers';
import { provisionTenantInput, tenantListQuery } from '@/lib/domain/tenants.schemas';

export const POST = route({ auth: auth.provider, body: provisionTenantInput, status: 201 }, ({ auth, body }) => provisionOwnedTenant(auth.provider, body));

export const GET = route({ auth: auth.provider, query: tenantListQuery }, ({ auth, query }) => listOwnedTenants(auth.provider, query));
