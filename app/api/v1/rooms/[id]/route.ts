import { route, auth } from '@/lib/http/route';
import { getRoom, updateRoom } from '@/lib/domain/rooms';
import { roomUpdateInput, roomResponse } from '@/lib/domain/rooms.schemas';

export const GET = route(
  {
    tag: 'Rooms',
    summary: 'Get a room with its participants',
    auth: auth.tenant('rooms.read'),
    response: roomResponse,
  },
  ({ auth, params }) => getRoom(auth.tenant, params.id),
);

export const PATCH = route(
  {
    tag: 'Rooms',
    summary: 'Update settings, lock or unlock',
    auth: auth.tenant('rooms.write'),
    body: roomUpdateInput,
    response: roomResponse,
  },
  ({ auth, params, body }) => updateRoom({ tenant: auth.tenant, roomId: params.id, input: body }),
);
