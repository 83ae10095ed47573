import { route, auth } from '@/lib/http/route';
import { approveParticipant } from '@/lib/domain/participants';
import { actingUserInput } from '@/lib/domain/rooms.schemas';
import { participantResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: actingUserInput, response: participantResponse },
  ({ auth, params, body }) =>
    approveParticipant(auth.tenant, params.id, params.participantId, body.actingExternalUserId),
);
