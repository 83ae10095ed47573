import { route, auth } from '@/lib/http/route';
import { setPollStatus } from '@/lib/domain/polls';
import { actorInput } from '@/lib/domain/engagement.schemas';
import { pollResponse } from '@/lib/domain/responses.schemas';

// Host action: actorExternalId must be a HOST or MODERATOR of the poll's room.
export const POST = route(
  { auth: auth.tenant('rooms.write'), body: actorInput, response: pollResponse },
  ({ auth, params, body }) => setPollStatus(auth.tenant, params.id, body.actorExternalId, 'OPEN'),
);
