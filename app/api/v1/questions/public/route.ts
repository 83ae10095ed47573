import { route, auth } from '@/lib/http/route';
import { askQuestion, listQuestions } from '@/lib/domain/questions';
import { publicQuestionCreateInput, questionListQuery } from '@/lib/domain/engagement.schemas';
import { questionPage, questionResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.participant, body: publicQuestionCreateInput, status: 201, response: questionResponse },
  ({ auth, body }) =>
    askQuestion(auth.tenant, auth.room, {
      text: body.text,
      askerExternalId: auth.participant.externalUserId,
      askerName: auth.participant.displayName,
    }),
);

export const GET = route(
  { auth: auth.participant, query: questionListQuery, response: questionPage },
  ({ auth, query }) => listQuestions(auth.tenant, auth.room.id, query),
);
