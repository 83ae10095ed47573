import { route, auth } from '@/lib/http/route';
import { createRoom, listRooms, roomView } from '@/lib/domain/rooms';
import { roomCreateInput, roomListQuery, roomPage, roomResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  {
    tag: 'Rooms',
    summary: 'Create a room',
    auth: auth.tenant('rooms.write'),
    body: roomCreateInput,
    status: 201,
    response: roomResponse,
  },
  async ({ auth, body }) => roomView(await createRoom({ tenant: auth.tenant, input: body }), []), // a new room has no participants yet
);

export const GET = route(
  { tag: 'Rooms', summary: 'List rooms', auth: auth.tenant('rooms.read'), query: roomListQuery, response: roomPage },
  ({ auth, query }) => listRooms(auth.tenant, query),
);
