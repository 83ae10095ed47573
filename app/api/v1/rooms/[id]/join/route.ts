import { route, auth } from '@/lib/http/route';
import { joinRoom } from '@/lib/domain/participants';
import { joinInput, joinResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  {
    tag: 'Rooms',
    summary: 'Join: mint a participant token and join URL',
    auth: auth.tenant('rooms.write'),
    body: joinInput,
    response: joinResponse,
  },
  ({ auth, params, body }) => joinRoom({ tenant: auth.tenant, roomId: params.id, input: body }),
);
