import { route, auth } from '@/lib/http/route';
import { listParticipants } from '@/lib/domain/participants';
import { participantListQuery } from '@/lib/domain/rooms.schemas';
import { participantPage } from '@/lib/domain/responses.schemas';

export const GET = route(
  { auth: auth.tenant('rooms.read'), query: participantListQuery, response: participantPage },
  ({ auth, params, query }) => listParticipants(auth.tenant, params.id, query),
);
