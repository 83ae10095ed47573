import { route, auth } from '@/lib/http/route';
import { endRoom } from '@/lib/domain/rooms';
import { roomResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), response: roomResponse }, ({ auth, params }) =>
  endRoom(auth.tenant, params.id),
);
