import { route, auth } from '@/lib/http/route';
import { admitAsParticipant } from '@/lib/domain/me';
import { participantResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.participant, response: participantResponse }, ({ auth, params }) =>
  admitAsParticipant(auth, params.participantId, false),
);
