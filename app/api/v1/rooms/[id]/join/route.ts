import { route, auth } from '@/lib/http/route';
import { joinRoom } from '@/lib/domain/participants';
import { joinInput } from '@/lib/domain/rooms.schemas';
import { joinResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: joinInput, response: joinResponse },
  ({ auth, params, body }) => joinRoom(auth.tenant, params.id, body),
);
