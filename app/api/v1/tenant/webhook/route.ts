import { route, auth } from '@/lib/http/route';
import { updateWebhookSettings } from '@/lib/domain/webhooks';
import { webhookSettingsInput } from '@/lib/domain/webhooks.schemas';

export const PATCH = route({ auth: auth.tenant('tenant.manage'), body: webhookSettingsInput }, ({ auth, body }) => updateWebhookSettings(auth.tenant, body));
