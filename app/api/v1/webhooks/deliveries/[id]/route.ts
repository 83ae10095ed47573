import { route, auth } from '@/lib/http/route';
import { getDelivery } from '@/lib/domain/webhooks';
import { webhookDeliveryResponse } from '@/lib/domain/webhooks.schemas';

export const GET = route(
  {
    tag: 'Webhooks',
    summary: 'Get a delivery with its attempts',
    auth: auth.tenant('tenant.read'),
    response: webhookDeliveryResponse,
  },
  ({ auth, params }) => getDelivery(auth.tenant, params.id),
);
