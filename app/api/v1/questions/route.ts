import { route, auth } from '@/lib/http/route';
import { askQuestionInRoom, listQuestions } from '@/lib/domain/questions';
import {
  questionCreateInput,
  questionRoomListQuery,
  questionPage,
  questionResponse,
} from '@/lib/domain/questions.schemas';

export const POST = route(
  {
    tag: 'Questions',
    summary: 'Ask a question for a user',
    auth: auth.tenant('rooms.write'),
    body: questionCreateInput,
    status: 201,
    response: questionResponse,
  },
  ({ auth, body: { roomId, ...question } }) => askQuestionInRoom(auth.tenant, roomId, question),
);

export const GET = route(
  {
    tag: 'Questions',
    summary: "List a room's questions",
    auth: auth.tenant('rooms.read'),
    query: questionRoomListQuery,
    response: questionPage,
  },
  ({ auth, query: { roomId, ...query } }) => listQuestions(auth.tenant, roomId, query),
);
