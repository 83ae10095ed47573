import { route, auth } from '@/lib/http/route';
import { listDeliveries } from '@/lib/domain/webhooks';
import { deliveryListQuery, webhookDeliveryPage } from '@/lib/domain/webhooks.schemas';

export const GET = route(
  {
    tag: 'Webhooks',
    summary: 'List deliveries with their attempts',
    auth: auth.tenant('tenant.read'),
    query: deliveryListQuery,
    response: webhookDeliveryPage,
  },
  ({ auth, query }) => listDeliveries(auth.tenant, query),
);
