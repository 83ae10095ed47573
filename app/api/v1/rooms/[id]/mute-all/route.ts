import { route, auth } from '@/lib/http/route';
import { muteAll } from '@/lib/domain/participants';
import { actingUserInput } from '@/lib/domain/rooms.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), body: actingUserInput }, ({ auth, params, body }) =>
  muteAll(auth.tenant, params.id, body.actingExternalUserId),
);
