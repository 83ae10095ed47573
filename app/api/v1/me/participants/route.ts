import { route, auth } from '@/lib/http/route';
import { callRoster } from '@/lib/domain/host-actions';
import { rosterResponse } from '@/lib/domain/host-actions.schemas';

export const GET = route(
  {
    tag: 'Hosted UI',
    summary: 'Who is in the call, for per-person host actions (host or moderator token)',
    auth: auth.participant,
    response: rosterResponse,
  },
  ({ auth }) => callRoster(auth),
);
