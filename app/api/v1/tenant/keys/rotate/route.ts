import { route, auth } from '@/lib/http/route';
import { rotateApiKey } from '@/lib/domain/keys';
import { rotateKeyInput } from '@/lib/domain/tenants.schemas';
import { apiKeyRotationResponse } from '@/lib/domain/responses.schemas';

// Rotates the key that made this call, carrying over its name, permissions and mode.
export const POST = route(
  { auth: auth.tenant('tenant.manage'), body: rotateKeyInput, response: apiKeyRotationResponse },
  ({ auth, body }) => rotateApiKey(auth.tenant, auth.apiKey.id, body.gracePeriodSeconds),
);
