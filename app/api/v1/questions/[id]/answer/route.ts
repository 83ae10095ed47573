import { route, auth } from '@/lib/http/route';
import { answerQuestion } from '@/lib/domain/questions';
import { answerInput, questionResponse } from '@/lib/domain/questions.schemas';

export const POST = route(
  {
    tag: 'Questions',
    summary: 'Answer (host action)',
    auth: auth.tenant('rooms.write'),
    body: answerInput,
    response: questionResponse,
  },
  ({ auth, params, body }) => answerQuestion({ tenant: auth.tenant, id: params.id, input: body }),
);
