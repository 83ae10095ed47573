import { route, auth } from '@/lib/http/route';
import { dismissQuestion } from '@/lib/domain/questions';
import { actorInput } from '@/lib/domain/engagement.schemas';
import { questionResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: actorInput, response: questionResponse },
  ({ auth, params, body }) => dismissQuestion(auth.tenant, params.id, body.actorExternalId),
);
