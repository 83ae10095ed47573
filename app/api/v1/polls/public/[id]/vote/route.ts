import { route, auth } from '@/lib/http/route';
import { vote } from '@/lib/domain/polls';
import { publicVoteInput, pollResponse } from '@/lib/domain/polls.schemas';

// A participant votes as themselves, only in their own room's polls.
export const POST = route(
  {
    tag: 'Polls',
    summary: "Participant surface: vote as the token's participant (participant token)",
    auth: auth.participant,
    body: publicVoteInput,
    response: pollResponse,
  },
  ({ auth, params, body }) =>
    vote({
      tenant: auth.tenant,
      id: params.id,
      voterExternalId: auth.participant.externalUserId,
      optionIds: body.optionIds,
      roomId: auth.room.id,
    }),
);
