import { route, auth } from '@/lib/http/route';
import { setPollStatus } from '@/lib/domain/polls';
import { actorInput } from '@/lib/domain/shared.schemas';
import { pollResponse } from '@/lib/domain/polls.schemas';

// Host action: actorExternalId must be a HOST or MODERATOR of the poll's room.
export const POST = route(
  {
    tag: 'Polls',
    summary: 'Open a poll (host action)',
    auth: auth.tenant('rooms.write'),
    body: actorInput,
    response: pollResponse,
  },
  ({ auth, params, body }) =>
    setPollStatus({ tenant: auth.tenant, id: params.id, actorExternalId: body.actorExternalId, to: 'OPEN' }),
);
