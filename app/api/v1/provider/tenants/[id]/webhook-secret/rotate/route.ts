import { route, auth } from '@/lib/http/route';
import { rotateWebhookSecret } from '@/lib/domain/webhooks';
import { secretRotationInput } from '@/lib/domain/webhooks.schemas';
import { findOwnedTenant } from '@/lib/domain/providers';
import { webhookSecretRotationResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.provider, body: secretRotationInput, response: webhookSecretRotationResponse },
  async ({ auth, params, body }) => {
    const tenant = await findOwnedTenant(auth.provider.id, params.id);
    return rotateWebhookSecret(tenant.id, body.overlapSeconds);
  },
);
