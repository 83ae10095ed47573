import { route, auth } from '@/lib/http/route';
import { vote } from '@/lib/domain/polls';
import { publicVoteInput } from '@/lib/domain/engagement.schemas';
import { pollResponse } from '@/lib/domain/responses.schemas';

// A participant votes as themselves, only in their own room's polls.
export const POST = route(
  { auth: auth.participant, body: publicVoteInput, response: pollResponse },
  ({ auth, params, body }) =>
    vote(auth.tenant, params.id, auth.participant.externalUserId, body.optionIds, auth.room.id),
);
