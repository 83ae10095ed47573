import { route, auth } from '@/lib/http/route';
import { rotateWebhookSecret } from '@/lib/domain/webhooks';
import { secretRotationInput, webhookSecretRotationResponse } from '@/lib/domain/webhooks.schemas';
import { findOwnedTenant } from '@/lib/domain/providers';

export const POST = route(
  {
    tag: 'Provider',
    summary: "Rotate an owned tenant's webhook secret",
    auth: auth.provider,
    body: secretRotationInput,
    response: webhookSecretRotationResponse,
  },
  async ({ auth, params, body }) => {
    const tenant = await findOwnedTenant(auth.provider.id, params.id);
    return rotateWebhookSecret(tenant.id, body.overlapSeconds);
  },
);
