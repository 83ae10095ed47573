import { route, auth } from '@/lib/http/route';
import { rateMeeting } from '@/lib/domain/meeting-tools';
import { ratingInput, ratingResponse } from '@/lib/domain/meeting-tools.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Rate the meeting you were in, 1–5 (also after you were removed)',
    // A removed participant's end screen asks for a rating too.
    auth: auth.participantEvenIfRefused,
    body: ratingInput,
    response: ratingResponse,
  },
  ({ auth, body }) => rateMeeting(auth, body),
);
