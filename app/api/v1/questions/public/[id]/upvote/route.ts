import { route, auth } from '@/lib/http/route';
import { upvoteQuestion } from '@/lib/domain/questions';
import { questionResponse } from '@/lib/domain/questions.schemas';

export const POST = route(
  {
    tag: 'Questions',
    summary: "Participant surface: upvote as the token's participant (participant token)",
    auth: auth.participant,
    response: questionResponse,
  },
  ({ auth, params }) =>
    upvoteQuestion({
      tenant: auth.tenant,
      id: params.id,
      voterExternalId: auth.participant.externalUserId,
      roomId: auth.room.id,
    }),
);
