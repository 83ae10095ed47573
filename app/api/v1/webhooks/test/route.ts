import { route, auth } from '@/lib/http/route';
import { sendTestEvent } from '@/lib/domain/webhooks';
import { webhookTestInput } from '@/lib/domain/webhooks.schemas';

export const POST = route({ auth: auth.tenant('tenant.manage'), body: webhookTestInput, status: 202 }, ({ auth, body }) => sendTestEvent(auth.tenant, body.event));
