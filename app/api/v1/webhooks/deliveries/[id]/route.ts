import { route, auth } from '@/lib/http/route';
import { getDelivery } from '@/lib/domain/webhooks';

export const GET = route({ auth: auth.tenant('tenant.read') }, ({ auth, params }) => getDelivery(auth.tenant, params.id));
