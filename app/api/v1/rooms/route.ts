import { route, auth } from '@/lib/http/route';
import { createRoom, listRooms, roomView } from '@/lib/domain/rooms';
import { roomCreateInput, roomListQuery } from '@/lib/domain/rooms.schemas';
import { roomPage, roomResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: roomCreateInput, status: 201, response: roomResponse },
  async ({ auth, body }) => roomView(await createRoom(auth.tenant, body), []), // a new room has no participants yet
);

export const GET = route(
  { auth: auth.tenant('rooms.read'), query: roomListQuery, response: roomPage },
  ({ auth, query }) => listRooms(auth.tenant, query),
);
