import { route, auth } from '@/lib/http/route';
import { approveParticipant } from '@/lib/domain/participants';
import { actingUserInput } from '@/lib/domain/rooms.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), body: actingUserInput }, ({ auth, params, body }) =>
  approveParticipant(auth.tenant, params.id, params.participantId, body.actingExternalUserId),
);
