import { route, auth } from '@/lib/http/route';
import { rotateApiKey } from '@/lib/domain/keys';
import { rotateKeyInput, apiKeyRotationResponse } from '@/lib/domain/keys.schemas';

// Rotates the key that made this call, carrying over its name, permissions and mode.
export const POST = route(
  {
    tag: 'Tenant',
    summary: 'Rotate the key making this call, with a grace period',
    auth: auth.tenant('tenant.manage'),
    body: rotateKeyInput,
    response: apiKeyRotationResponse,
  },
  ({ auth, body }) =>
    rotateApiKey({ tenant: auth.tenant, keyId: auth.apiKey.id, gracePeriodSeconds: body.gracePeriodSeconds }),
);
