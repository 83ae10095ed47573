import { route, auth } from '@/lib/http/route';
import { removeParticipant } from '@/lib/domain/participants';
import { participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  {
    tag: 'Participants',
    summary: 'Remove (kick) a participant',
    auth: auth.tenant('rooms.write'),
    response: participantResponse,
  },
  ({ auth, params }) => removeParticipant(auth.tenant, params.id, params.participantId),
);
