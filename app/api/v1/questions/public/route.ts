import { route, auth } from '@/lib/http/route';
import { askQuestion, listQuestions } from '@/lib/domain/questions';
import {
  publicQuestionCreateInput,
  questionListQuery,
  questionPage,
  questionResponse,
} from '@/lib/domain/questions.schemas';

export const POST = route(
  {
    tag: 'Questions',
    summary: "Participant surface: ask as the token's participant (participant token)",
    auth: auth.participant,
    body: publicQuestionCreateInput,
    status: 201,
    response: questionResponse,
  },
  ({ auth, body }) =>
    askQuestion(auth.tenant, auth.room, {
      text: body.text,
      askerExternalId: auth.participant.externalUserId,
      askerName: auth.participant.displayName,
    }),
);

export const GET = route(
  {
    tag: 'Questions',
    summary: "Participant surface: list the token's room's questions (participant token)",
    auth: auth.participant,
    query: questionListQuery,
    response: questionPage,
  },
  ({ auth, query }) => listQuestions(auth.tenant, auth.room.id, query),
);
