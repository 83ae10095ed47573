import { route, auth } from '@/lib/http/route';
import { replayDelivery } from '@/lib/domain/webhooks';

export const POST = route({ auth: auth.tenant('tenant.manage'), status: 202 }, ({ auth, params }) => replayDelivery(auth.tenant, params.id));
