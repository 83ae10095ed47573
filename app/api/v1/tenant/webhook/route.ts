import { route, auth } from '@/lib/http/route';
import { updateWebhookSettings } from '@/lib/domain/webhooks';
import { webhookSettingsInput, tenantWebhookResponse } from '@/lib/domain/webhooks.schemas';

export const PATCH = route(
  {
    tag: 'Webhooks',
    summary: 'Set the webhook URL and event filter',
    auth: auth.tenant('tenant.manage'),
    body: webhookSettingsInput,
    response: tenantWebhookResponse,
  },
  ({ auth, body }) => updateWebhookSettings(auth.tenant, body),
);
