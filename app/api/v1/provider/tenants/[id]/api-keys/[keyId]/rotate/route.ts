import { route, auth } from '@/lib/http/route';
import { findOwnedTenant } from '@/lib/domain/providers';
import { rotateApiKey } from '@/lib/domain/keys';
import { rotateKeyInput, apiKeyRotationResponse } from '@/lib/domain/keys.schemas';

export const POST = route(
  {
    tag: 'Provider',
    summary: 'Rotate an API key',
    auth: auth.provider,
    body: rotateKeyInput,
    response: apiKeyRotationResponse,
  },
  async ({ auth, params, body }) =>
    rotateApiKey({
      tenant: await findOwnedTenant(auth.provider.id, params.id),
      keyId: params.keyId,
      gracePeriodSeconds: body.gracePeriodSeconds,
    }),
);
