import { route, auth } from '@/lib/http/route';
import { createPoll, listPollsForParticipant } from '@/lib/domain/polls';
import { paginationQuery } from '@/lib/domain/pagination';
import { publicPollCreateInput } from '@/lib/domain/engagement.schemas';
import { pollPage, pollResponse } from '@/lib/domain/responses.schemas';

// Participant token; the participant must be a HOST or MODERATOR of the room in OUR database.
export const POST = route(
  { auth: auth.participant, body: publicPollCreateInput, status: 201, response: pollResponse },
  ({ auth, body }) => createPoll(auth.tenant, auth.room, auth.participant.externalUserId, body),
);

export const GET = route({ auth: auth.participant, query: paginationQuery, response: pollPage }, ({ auth, query }) =>
  listPollsForParticipant(auth.tenant, auth.room, auth.participant, query),
);
