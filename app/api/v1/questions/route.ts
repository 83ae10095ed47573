import { route, auth } from '@/lib/http/route';
import { askQuestionInRoom, listQuestions } from '@/lib/domain/questions';
import { questionCreateInput, questionRoomListQuery } from '@/lib/domain/engagement.schemas';
import { questionPage, questionResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: questionCreateInput, status: 201, response: questionResponse },
  ({ auth, body: { roomId, ...question } }) => askQuestionInRoom(auth.tenant, roomId, question),
);

export const GET = route(
  { auth: auth.tenant('rooms.read'), query: questionRoomListQuery, response: questionPage },
  ({ auth, query: { roomId, ...query } }) => listQuestions(auth.tenant, roomId, query),
);
