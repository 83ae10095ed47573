import { route, auth } from '@/lib/http/route';
import { waitingList } from '@/lib/domain/me';
import { waitingPage } from '@/lib/domain/me.schemas';

export const GET = route(
  {
    tag: 'Hosted UI',
    summary: 'Who is in the waiting room (host or moderator token)',
    auth: auth.participant,
    response: waitingPage,
  },
  ({ auth }) => waitingList(auth),
);
