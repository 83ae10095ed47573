import { route, auth } from '@/lib/http/route';
import { getQuestion } from '@/lib/domain/questions';
import { questionResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('rooms.read'), response: questionResponse }, ({ auth, params }) =>
  getQuestion(auth.tenant, params.id),
);
