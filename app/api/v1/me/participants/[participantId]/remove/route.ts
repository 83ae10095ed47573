import { route, auth } from '@/lib/http/route';
import { removeAsModerator } from '@/lib/domain/host-actions';
import { participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Remove one person from the call (host or moderator token)',
    auth: auth.participant,
    response: participantResponse,
  },
  ({ auth, params }) => removeAsModerator(auth, params.participantId),
);
