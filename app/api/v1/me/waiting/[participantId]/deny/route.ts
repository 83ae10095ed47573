import { route, auth } from '@/lib/http/route';
import { denyAsParticipant } from '@/lib/domain/me';
import { participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  { tag: 'Hosted UI', summary: 'Refuse from the waiting room', auth: auth.participant, response: participantResponse },
  ({ auth, params }) => denyAsParticipant(auth, params.participantId),
);
