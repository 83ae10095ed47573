import { route, auth } from '@/lib/http/route';
import { upvoteQuestion } from '@/lib/domain/questions';
import { upvoteInput, questionResponse } from '@/lib/domain/questions.schemas';

export const POST = route(
  {
    tag: 'Questions',
    summary: 'Upvote for a user (once per user)',
    auth: auth.tenant('rooms.write'),
    body: upvoteInput,
    response: questionResponse,
  },
  ({ auth, params, body }) =>
    upvoteQuestion({ tenant: auth.tenant, id: params.id, voterExternalId: body.voterExternalId }),
);
