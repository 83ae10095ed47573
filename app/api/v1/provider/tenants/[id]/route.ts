import { route, auth } from '@/lib/http/route';
import { getOwnedTenant, updateOwnedTenant } from '@/lib/domain/providers';
import { updateTenantInput } from '@/lib/domain/tenants.schemas';

export const GET = route({ auth: auth.provider }, ({ auth, params }) => getOwnedTenant(auth.provider, params.id));

export const PATCH = route({ auth: auth.provider, body: updateTenantInput }, ({ auth, params, body }) => updateOwnedTenant(auth.provider, params.id, body));
