import { route, auth } from '@/lib/http/route';
import { tenantPresence } from '@/lib/domain/attendance';
import { presencePage } from '@/lib/domain/sessions.schemas';
import { paginationQuery } from '@/lib/domain/pagination';

export const GET = route(
  {
    tag: 'Sessions',
    summary: 'Who is connected now, across the tenant',
    auth: auth.tenant('rooms.read'),
    query: paginationQuery,
    response: presencePage,
  },
  ({ auth, query }) => tenantPresence(auth.tenant, query),
);
