import { route, auth } from '@/lib/http/route';
import { answerQuestion } from '@/lib/domain/questions';
import { publicAnswerInput, questionResponse } from '@/lib/domain/questions.schemas';

// Participant token of a HOST or MODERATOR (per our records) of the question's room; answerText is optional.
export const POST = route(
  {
    tag: 'Questions',
    summary: 'Participant surface: mark answered, optionally with an answer (host or moderator token)',
    auth: auth.participant,
    body: publicAnswerInput,
    response: questionResponse,
  },
  ({ auth, params, body }) =>
    answerQuestion({
      tenant: auth.tenant,
      id: params.id,
      input: { answerText: body.answerText, answeredByExternalId: auth.participant.externalUserId },
      roomId: auth.room.id,
    }),
);
