import { route, auth } from '@/lib/http/route';
import { approveParticipant } from '@/lib/domain/participants';
import { actingUserInput, participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  {
    tag: 'Participants',
    summary: 'Admit from the waiting room',
    auth: auth.tenant('rooms.write'),
    body: actingUserInput,
    response: participantResponse,
  },
  ({ auth, params, body }) =>
    approveParticipant({
      tenant: auth.tenant,
      roomId: params.id,
      participantId: params.participantId,
      actingExternalUserId: body.actingExternalUserId,
    }),
);
