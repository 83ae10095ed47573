import { route, auth } from '@/lib/http/route';
import { vote } from '@/lib/domain/polls';
import { voteInput, pollResponse } from '@/lib/domain/polls.schemas';

export const POST = route(
  {
    tag: 'Polls',
    summary: 'Vote for a user',
    auth: auth.tenant('rooms.write'),
    body: voteInput,
    response: pollResponse,
  },
  ({ auth, params, body }) =>
    vote({ tenant: auth.tenant, id: params.id, voterExternalId: body.voterExternalId, optionIds: body.optionIds }),
);
