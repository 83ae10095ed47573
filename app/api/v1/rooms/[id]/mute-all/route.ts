import { route, auth } from '@/lib/http/route';
import { muteAll } from '@/lib/domain/participants';
import { actingUserInput } from '@/lib/domain/rooms.schemas';
import { muteAllResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: actingUserInput, response: muteAllResponse },
  ({ auth, params, body }) => muteAll(auth.tenant, params.id, body.actingExternalUserId),
);
