import { route, auth } from '@/lib/http/route';
import { findOwnedTenant } from '@/lib/domain/providers';
import { rotateApiKey } from '@/lib/domain/keys';
import { rotateKeyInput } from '@/lib/domain/tenants.schemas';
import { apiKeyRotationResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.provider, body: rotateKeyInput, response: apiKeyRotationResponse },
  async ({ auth, params, body }) =>
    rotateApiKey(await findOwnedTenant(auth.provider.id, params.id), params.keyId, body.gracePeriodSeconds),
);
