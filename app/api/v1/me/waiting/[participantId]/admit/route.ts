import { route, auth } from '@/lib/http/route';
import { admitAsParticipant } from '@/lib/domain/me';
import { participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  { tag: 'Hosted UI', summary: 'Admit from the waiting room', auth: auth.participant, response: participantResponse },
  ({ auth, params }) => admitAsParticipant(auth, params.participantId),
);
