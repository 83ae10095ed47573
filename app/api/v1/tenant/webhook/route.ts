import { route, auth } from '@/lib/http/route';
import { updateWebhookSettings } from '@/lib/domain/webhooks';
import { webhookSettingsInput } from '@/lib/domain/webhooks.schemas';
import { tenantWebhookResponse } from '@/lib/domain/responses.schemas';

export const PATCH = route(
  { auth: auth.tenant('tenant.manage'), body: webhookSettingsInput, response: tenantWebhookResponse },
  ({ auth, body }) => updateWebhookSettings(auth.tenant, body),
);
