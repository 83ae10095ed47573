import { route, auth } from '@/lib/http/route';
import { rotateWebhookSecret } from '@/lib/domain/webhooks';
import { secretRotationInput, webhookSecretRotationResponse } from '@/lib/domain/webhooks.schemas';

export const POST = route(
  {
    tag: 'Webhooks',
    summary: 'Rotate the webhook secret (both sign during the overlap)',
    auth: auth.tenant('tenant.manage'),
    body: secretRotationInput,
    response: webhookSecretRotationResponse,
  },
  ({ auth, body }) => rotateWebhookSecret(auth.tenant.id, body.overlapSeconds),
);
