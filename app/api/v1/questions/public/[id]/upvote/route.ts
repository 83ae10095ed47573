import { route, auth } from '@/lib/http/route';
import { upvoteQuestion } from '@/lib/domain/questions';
import { questionResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.participant, response: questionResponse }, ({ auth, params }) =>
  upvoteQuestion(auth.tenant, params.id, auth.participant.externalUserId, auth.room.id),
);
