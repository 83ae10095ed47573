import { route, auth } from '@/lib/http/route';
import { setPollStatus } from '@/lib/domain/polls';
import { pollResponse } from '@/lib/domain/responses.schemas';

// Participant token of a HOST or MODERATOR (per our records) of the poll's room.
export const POST = route({ auth: auth.participant, response: pollResponse }, ({ auth, params }) =>
  setPollStatus(auth.tenant, params.id, auth.participant.externalUserId, 'OPEN', auth.room.id),
);
