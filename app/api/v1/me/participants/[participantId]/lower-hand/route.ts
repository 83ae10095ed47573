import { route, auth } from '@/lib/http/route';
import { lowerHandAsModerator } from '@/lib/domain/hands';
import { handResponse } from '@/lib/domain/hands.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Lower someone’s raised hand (host or moderator token)',
    auth: auth.participant,
    response: handResponse,
  },
  ({ auth, params }) => lowerHandAsModerator(auth, params.participantId),
);
