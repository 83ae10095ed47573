import { route, auth } from '@/lib/http/route';
import { muteAll } from '@/lib/domain/participants';
import { actingUserInput } from '@/lib/domain/participants.schemas';
import { muteAllResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  {
    tag: 'Rooms',
    summary: 'Mute every non-moderator (host action)',
    auth: auth.tenant('rooms.write'),
    body: actingUserInput,
    response: muteAllResponse,
  },
  ({ auth, params, body }) => muteAll(auth.tenant, params.id, body.actingExternalUserId),
);
