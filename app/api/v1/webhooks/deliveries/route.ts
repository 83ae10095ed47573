import { route, auth } from '@/lib/http/route';
import { listDeliveries } from '@/lib/domain/webhooks';
import { deliveryListQuery } from '@/lib/domain/webhooks.schemas';
import { webhookDeliveryPage } from '@/lib/domain/responses.schemas';

export const GET = route(
  { auth: auth.tenant('tenant.read'), query: deliveryListQuery, response: webhookDeliveryPage },
  ({ auth, query }) => listDeliveries(auth.tenant, query),
);
