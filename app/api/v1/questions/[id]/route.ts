import { route, auth } from '@/lib/http/route';
import { getQuestion } from '@/lib/domain/questions';
import { questionResponse } from '@/lib/domain/questions.schemas';

export const GET = route(
  { tag: 'Questions', summary: 'Get a question', auth: auth.tenant('rooms.read'), response: questionResponse },
  ({ auth, params }) => getQuestion(auth.tenant, params.id),
);
