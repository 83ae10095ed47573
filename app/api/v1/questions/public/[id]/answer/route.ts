import { route, auth } from '@/lib/http/route';
import { answerQuestion } from '@/lib/domain/questions';
import { publicAnswerInput } from '@/lib/domain/engagement.schemas';
import { questionResponse } from '@/lib/domain/responses.schemas';

// Participant token of a HOST or MODERATOR (per our records) of the question's room; answerText is optional.
export const POST = route(
  { auth: auth.participant, body: publicAnswerInput, response: questionResponse },
  ({ auth, params, body }) =>
    answerQuestion(
      auth.tenant,
      params.id,
      { answerText: body.answerText, answeredByExternalId: auth.participant.externalUserId },
      auth.room.id,
    ),
);
