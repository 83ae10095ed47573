import { route, auth } from '@/lib/http/route';
import { me } from '@/lib/domain/me';
import { meResponse } from '@/lib/domain/me.schemas';

export const GET = route(
  {
    tag: 'Hosted UI',
    summary: 'Who this participant token is, and the room facts',
    auth: auth.participantEvenIfRefused,
    response: meResponse,
  },
  ({ auth }) => me(auth),
);
