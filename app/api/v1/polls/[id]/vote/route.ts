import { route, auth } from '@/lib/http/route';
import { vote } from '@/lib/domain/polls';
import { voteInput } from '@/lib/domain/engagement.schemas';
import { pollResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: voteInput, response: pollResponse },
  ({ auth, params, body }) => vote(auth.tenant, params.id, body.voterExternalId, body.optionIds),
);
