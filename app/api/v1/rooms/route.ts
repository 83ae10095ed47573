import { route, auth } from '@/lib/http/route';
import { createRoom, listRooms, roomView } from '@/lib/domain/rooms';
import { roomCreateInput, roomListQuery } from '@/lib/domain/rooms.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), body: roomCreateInput, status: 201 }, async ({ auth, body }) =>
  roomView(await createRoom(auth.tenant, body)),
);

export const GET = route({ auth: auth.tenant('rooms.read'), query: roomListQuery }, ({ auth, query }) => listRooms(auth.tenant, query));
