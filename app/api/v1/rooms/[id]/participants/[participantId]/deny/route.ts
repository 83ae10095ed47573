import { route, auth } from '@/lib/http/route';
import { denyParticipant } from '@/lib/domain/participants';
import { actingUserInput, participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  {
    tag: 'Participants',
    summary: 'Refuse from the waiting room',
    auth: auth.tenant('rooms.write'),
    body: actingUserInput,
    response: participantResponse,
  },
  ({ auth, params, body }) =>
    denyParticipant({
      tenant: auth.tenant,
      roomId: params.id,
      participantId: params.participantId,
      actingExternalUserId: body.actingExternalUserId,
    }),
);
