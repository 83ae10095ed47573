import { route, auth } from '@/lib/http/route';
import { createPollForRoom, listPolls } from '@/lib/domain/polls';
import { pollCreateInput, pollListQuery, pollPage, pollResponse } from '@/lib/domain/polls.schemas';

export const POST = route(
  {
    tag: 'Polls',
    summary: 'Create a poll',
    auth: auth.tenant('rooms.write'),
    body: pollCreateInput,
    status: 201,
    response: pollResponse,
  },
  ({ auth, body: { roomId, createdByExternalId, ...poll } }) =>
    createPollForRoom({ tenant: auth.tenant, roomId, creatorExternalId: createdByExternalId, input: poll }),
);

export const GET = route(
  {
    tag: 'Polls',
    summary: "List a room's polls",
    auth: auth.tenant('rooms.read'),
    query: pollListQuery,
    response: pollPage,
  },
  ({ auth, query }) => listPolls({ tenant: auth.tenant, roomId: query.roomId, page: query }),
);
