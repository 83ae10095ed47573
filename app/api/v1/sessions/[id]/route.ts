import { route, auth } from '@/lib/http/route';
import { getSession } from '@/lib/domain/attendance';
import { sessionWithAttendanceResponse } from '@/lib/domain/sessions.schemas';

export const GET = route(
  {
    tag: 'Sessions',
    summary: 'Get a session with its attendance',
    auth: auth.tenant('rooms.read'),
    response: sessionWithAttendanceResponse,
  },
  ({ auth, params }) => getSession(auth.tenant, params.id),
);
