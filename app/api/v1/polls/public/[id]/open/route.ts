import { route, auth } from '@/lib/http/route';
import { setPollStatus } from '@/lib/domain/polls';
import { pollResponse } from '@/lib/domain/polls.schemas';

// Participant token of a HOST or MODERATOR (per our records) of the poll's room.
export const POST = route(
  {
    tag: 'Polls',
    summary: 'Participant surface: open a poll (host or moderator token)',
    auth: auth.participant,
    response: pollResponse,
  },
  ({ auth, params }) =>
    setPollStatus({
      tenant: auth.tenant,
      id: params.id,
      actorExternalId: auth.participant.externalUserId,
      to: 'OPEN',
      roomId: auth.room.id,
    }),
);
