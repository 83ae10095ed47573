import { route, auth } from '@/lib/http/route';
import { replayDelivery } from '@/lib/domain/webhooks';
import { webhookDeliveryResponse } from '@/lib/domain/webhooks.schemas';

export const POST = route(
  {
    tag: 'Webhooks',
    summary: 'Replay a delivery with its original event id',
    auth: auth.tenant('tenant.manage'),
    status: 202,
    response: webhookDeliveryResponse,
  },
  ({ auth, params }) => replayDelivery(auth.tenant, params.id),
);
