import { route, auth } from '@/lib/http/route';
import { listSessions } from '@/lib/domain/attendance';
import { sessionPage, tenantSessionListQuery } from '@/lib/domain/sessions.schemas';

export const GET = route(
  {
    tag: 'Sessions',
    summary: 'List sessions across the tenant by time range',
    auth: auth.tenant('rooms.read'),
    query: tenantSessionListQuery,
    response: sessionPage,
  },
  ({ auth, query }) => listSessions(auth.tenant, query),
);
