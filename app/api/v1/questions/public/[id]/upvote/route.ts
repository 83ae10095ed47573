import { route, auth } from '@/lib/http/route';
import { upvoteQuestion } from '@/lib/domain/questions';

export const POST = route({ auth: auth.participant }, ({ auth, params }) => upvoteQuestion(auth.tenant, params.id, auth.participant.externalUserId, auth.room.id));
