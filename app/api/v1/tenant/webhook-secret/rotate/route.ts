import { route, auth } from '@/lib/http/route';
import { rotateWebhookSecret } from '@/lib/domain/webhooks';
import { secretRotationInput } from '@/lib/domain/webhooks.schemas';
import { webhookSecretRotationResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('tenant.manage'), body: secretRotationInput, response: webhookSecretRotationResponse },
  ({ auth, body }) => rotateWebhookSecret(auth.tenant.id, body.overlapSeconds),
);
