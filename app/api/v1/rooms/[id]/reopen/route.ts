import { route, auth } from '@/lib/http/route';
import { reopenRoom } from '@/lib/domain/rooms';
import { roomResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  { tag: 'Rooms', summary: 'Re-open an ended room', auth: auth.tenant('rooms.write'), response: roomResponse },
  ({ auth, params }) => reopenRoom(auth.tenant, params.id),
);
