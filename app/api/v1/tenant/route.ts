import { route, auth } from '@/lib/http/route';
import { tenantView } from '@/lib/domain/tenants';

export const GET = route({ auth: auth.tenant('tenant.read') }, async ({ auth }) => tenantView(auth.tenant));
