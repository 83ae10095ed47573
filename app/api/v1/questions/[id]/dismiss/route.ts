import { route, auth } from '@/lib/http/route';
import { dismissQuestion } from '@/lib/domain/questions';
import { actorInput } from '@/lib/domain/shared.schemas';
import { questionResponse } from '@/lib/domain/questions.schemas';

export const POST = route(
  {
    tag: 'Questions',
    summary: 'Dismiss (host action)',
    auth: auth.tenant('rooms.write'),
    body: actorInput,
    response: questionResponse,
  },
  ({ auth, params, body }) =>
    dismissQuestion({ tenant: auth.tenant, id: params.id, actorExternalId: body.actorExternalId }),
);
