import { route, auth } from '@/lib/http/route';
import { getParticipant, updateParticipant } from '@/lib/domain/participants';
import { participantUpdateInput, participantResponse } from '@/lib/domain/participants.schemas';

export const GET = route(
  { tag: 'Participants', summary: 'Get a participant', auth: auth.tenant('rooms.read'), response: participantResponse },
  ({ auth, params }) => getParticipant(auth.tenant, params.id, params.participantId),
);

export const PATCH = route(
  {
    tag: 'Participants',
    summary: 'Change role and permissions',
    auth: auth.tenant('rooms.write'),
    body: participantUpdateInput,
    response: participantResponse,
  },
  ({ auth, params, body }) =>
    updateParticipant({ tenant: auth.tenant, roomId: params.id, participantId: params.participantId, input: body }),
);
