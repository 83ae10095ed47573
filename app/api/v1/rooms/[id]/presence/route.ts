import { route, auth } from '@/lib/http/route';
import { roomPresence } from '@/lib/domain/attendance';
import { presenceRoomResponse } from '@/lib/domain/sessions.schemas';

export const GET = route(
  {
    tag: 'Sessions',
    summary: 'Who is connected to the room now',
    auth: auth.tenant('rooms.read'),
    response: presenceRoomResponse,
  },
  ({ auth, params }) => roomPresence(auth.tenant, params.id),
);
