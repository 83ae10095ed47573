import { route, auth } from '@/lib/http/route';
import { setPollStatus } from '@/lib/domain/polls';
import { actorInput } from '@/lib/domain/engagement.schemas';

// Host action: actorExternalId must be a HOST or MODERATOR of the poll's room.
export const POST = route({ auth: auth.tenant('rooms.write'), body: actorInput }, ({ auth, params, body }) =>
  setPollStatus(auth.tenant, params.id, body.actorExternalId, 'CLOSED'),
);
