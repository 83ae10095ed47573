import { route, auth } from '@/lib/http/route';
import { getPoll } from '@/lib/domain/polls';
import { pollResponse } from '@/lib/domain/polls.schemas';

export const GET = route(
  { tag: 'Polls', summary: 'Get poll results', auth: auth.tenant('rooms.read'), response: pollResponse },
  ({ auth, params }) => getPoll(auth.tenant, params.id),
);
