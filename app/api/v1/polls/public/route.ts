import { route, auth } from '@/lib/http/route';
import { createPoll, listPollsForParticipant } from '@/lib/domain/polls';
import { paginationQuery } from '@/lib/domain/pagination';
import { publicPollCreateInput, pollPage, pollResponse } from '@/lib/domain/polls.schemas';

// Participant token; the participant must be a HOST or MODERATOR of the room in OUR database.
export const POST = route(
  {
    tag: 'Polls',
    summary: "Participant surface: create a poll in the token's room (host or moderator token)",
    auth: auth.participant,
    body: publicPollCreateInput,
    status: 201,
    response: pollResponse,
  },
  ({ auth, body }) =>
    createPoll({
      tenant: auth.tenant,
      room: auth.room,
      creatorExternalId: auth.participant.externalUserId,
      input: body,
    }),
);

export const GET = route(
  {
    tag: 'Polls',
    summary: "Participant surface: list the token's room's polls (participant token)",
    auth: auth.participant,
    query: paginationQuery,
    response: pollPage,
  },
  ({ auth, query }) => listPollsForParticipant(auth, query),
);
