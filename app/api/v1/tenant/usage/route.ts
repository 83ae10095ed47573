import { route, auth } from '@/lib/http/route';
import { tenantUsage } from '@/lib/domain/usage';
import { usageQuery } from '@/lib/domain/tenants.schemas';

export const GET = route({ auth: auth.tenant('tenant.read'), query: usageQuery }, ({ auth, query }) => tenantUsage(auth.tenant.id, query));
