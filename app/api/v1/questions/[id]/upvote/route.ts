import { route, auth } from '@/lib/http/route';
import { upvoteQuestion } from '@/lib/domain/questions';
import { upvoteInput } from '@/lib/domain/engagement.schemas';
import { questionResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: upvoteInput, response: questionResponse },
  ({ auth, params, body }) => upvoteQuestion(auth.tenant, params.id, body.voterExternalId),
);
