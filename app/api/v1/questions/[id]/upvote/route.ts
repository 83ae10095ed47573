import { route, auth } from '@/lib/http/route';
import { upvoteQuestion } from '@/lib/domain/questions';
import { upvoteInput } from '@/lib/domain/engagement.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), body: upvoteInput }, ({ auth, params, body }) => upvoteQuestion(auth.tenant, params.id, body.voterExternalId));
