import { route, auth } from '@/lib/http/route';
import { createPollForRoom, listPolls } from '@/lib/domain/polls';
import { pollCreateInput, roomPageQuery } from '@/lib/domain/engagement.schemas';
import { pollPage, pollResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: pollCreateInput, status: 201, response: pollResponse },
  ({ auth, body: { roomId, createdByExternalId, ...poll } }) =>
    createPollForRoom(auth.tenant, roomId, createdByExternalId, poll),
);

export const GET = route(
  { auth: auth.tenant('rooms.read'), query: roomPageQuery, response: pollPage },
  ({ auth, query }) => listPolls(auth.tenant, query.roomId, query),
);
