import { route, auth } from '@/lib/http/route';
import { sendTestEvent } from '@/lib/domain/webhooks';
import { webhookTestInput } from '@/lib/domain/webhooks.schemas';
import { webhookTestResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('tenant.manage'), body: webhookTestInput, status: 202, response: webhookTestResponse },
  ({ auth, body }) => sendTestEvent(auth.tenant, body.event),
);
