import { route, auth } from '@/lib/http/route';
import { findOwnedTenant } from '@/lib/domain/providers';
import { revokeApiKey } from '@/lib/domain/keys';
import { apiKeyResponse } from '@/lib/domain/keys.schemas';

export const DELETE = route(
  { tag: 'Provider', summary: 'Revoke an API key', auth: auth.provider, response: apiKeyResponse },
  async ({ auth, params }) => revokeApiKey((await findOwnedTenant(auth.provider.id, params.id)).id, params.keyId),
);
