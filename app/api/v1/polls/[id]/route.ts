import { route, auth } from '@/lib/http/route';
import { getPoll } from '@/lib/domain/polls';
import { pollResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('rooms.read'), response: pollResponse }, ({ auth, params }) =>
  getPoll(auth.tenant, params.id),
);
