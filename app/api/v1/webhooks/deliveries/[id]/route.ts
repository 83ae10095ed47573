import { route, auth } from '@/lib/http/route';
import { getDelivery } from '@/lib/domain/webhooks';
import { webhookDeliveryResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('tenant.read'), response: webhookDeliveryResponse }, ({ auth, params }) =>
  getDelivery(auth.tenant, params.id),
);
