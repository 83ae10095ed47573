import { route, auth } from '@/lib/http/route';
import { endRoom } from '@/lib/domain/room-end';
import { roomResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  { tag: 'Rooms', summary: 'End a room', auth: auth.tenant('rooms.write'), response: roomResponse },
  ({ auth, params }) => endRoom(auth.tenant, params.id),
);
