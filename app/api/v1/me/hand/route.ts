import { route, auth } from '@/lib/http/route';
import { setOwnHand } from '@/lib/domain/hands';
import { handInput, handResponse } from '@/lib/domain/hands.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Raise or lower your own hand',
    auth: auth.participant,
    body: handInput,
    response: handResponse,
  },
  ({ auth, body }) => setOwnHand(auth, body),
);
