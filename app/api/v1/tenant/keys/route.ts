import { route, auth } from '@/lib/http/route';
import { paginationQuery } from '@/lib/domain/pagination';
import { listApiKeys } from '@/lib/domain/keys';
import { apiKeyPage } from '@/lib/domain/keys.schemas';

export const GET = route(
  {
    tag: 'Tenant',
    summary: 'List API keys (hints only)',
    auth: auth.tenant('tenant.read'),
    query: paginationQuery,
    response: apiKeyPage,
  },
  ({ auth, query }) => listApiKeys(auth.tenant.id, query),
);
