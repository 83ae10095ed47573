import { route, auth } from '@/lib/http/route';
import { answerQuestion } from '@/lib/domain/questions';
import { answerInput } from '@/lib/domain/engagement.schemas';
import { questionResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: answerInput, response: questionResponse },
  ({ auth, params, body }) => answerQuestion(auth.tenant, params.id, body),
);
