import { route, auth } from '@/lib/http/route';
import { getRoom, updateRoom } from '@/lib/domain/rooms';
import { roomUpdateInput } from '@/lib/domain/rooms.schemas';
import { roomResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('rooms.read'), response: roomResponse }, ({ auth, params }) =>
  getRoom(auth.tenant, params.id),
);

export const PATCH = route(
  { auth: auth.tenant('rooms.write'), body: roomUpdateInput, response: roomResponse },
  ({ auth, params, body }) => updateRoom(auth.tenant, params.id, body),
);
