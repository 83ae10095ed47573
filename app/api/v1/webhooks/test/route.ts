import { route, auth } from '@/lib/http/route';
import { sendTestEvent } from '@/lib/domain/webhooks';
import { webhookTestInput, webhookTestResponse } from '@/lib/domain/webhooks.schemas';

export const POST = route(
  {
    tag: 'Webhooks',
    summary: 'Send a signed test event through the real pipeline',
    auth: auth.tenant('tenant.manage'),
    body: webhookTestInput,
    status: 202,
    response: webhookTestResponse,
  },
  ({ auth, body }) => sendTestEvent(auth.tenant, body.event),
);
