import { route, auth } from '@/lib/http/route';
import { dismissQuestion } from '@/lib/domain/questions';
import { questionResponse } from '@/lib/domain/responses.schemas';

// Participant token of a HOST or MODERATOR (per our records) of the question's room.
export const POST = route({ auth: auth.participant, response: questionResponse }, ({ auth, params }) =>
  dismissQuestion(auth.tenant, params.id, auth.participant.externalUserId, auth.room.id),
);
