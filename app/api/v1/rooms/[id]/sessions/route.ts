import { route, auth } from '@/lib/http/route';
import { listRoomSessions } from '@/lib/domain/attendance';
import { sessionListQuery, sessionPage } from '@/lib/domain/sessions.schemas';

export const GET = route(
  {
    tag: 'Sessions',
    summary: "List a room's sessions (live periods), newest first",
    auth: auth.tenant('rooms.read'),
    query: sessionListQuery,
    response: sessionPage,
  },
  ({ auth, params, query }) => listRoomSessions(auth.tenant, params.id, query),
);
