import { route, auth } from '@/lib/http/route';
import { replayDelivery } from '@/lib/domain/webhooks';
import { webhookDeliveryResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('tenant.manage'), status: 202, response: webhookDeliveryResponse },
  ({ auth, params }) => replayDelivery(auth.tenant, params.id),
);
