import { route, auth } from '@/lib/http/route';
import { paginationQuery } from '@/lib/domain/pagination';
import { findOwnedTenant } from '@/lib/domain/providers';
import { createTenantApiKey, listApiKeys } from '@/lib/domain/keys';
import { createKeyInput, apiKeyPage, createdApiKeyResponse } from '@/lib/domain/keys.schemas';

export const POST = route(
  {
    tag: 'Provider',
    summary: 'Create an API key',
    auth: auth.provider,
    body: createKeyInput,
    status: 201,
    response: createdApiKeyResponse,
  },
  async ({ auth, params, body }) => createTenantApiKey(await findOwnedTenant(auth.provider.id, params.id), body),
);

export const GET = route(
  {
    tag: 'Provider',
    summary: 'List API keys (hints only)',
    auth: auth.provider,
    query: paginationQuery,
    response: apiKeyPage,
  },
  async ({ auth, params, query }) => listApiKeys((await findOwnedTenant(auth.provider.id, params.id)).id, query),
);
