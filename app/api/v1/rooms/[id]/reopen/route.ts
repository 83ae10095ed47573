import { route, auth } from '@/lib/http/route';
import { reopenRoom } from '@/lib/domain/rooms';
import { roomResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), response: roomResponse }, ({ auth, params }) =>
  reopenRoom(auth.tenant, params.id),
);
