import { route, auth } from '@/lib/http/route';
import { listParticipants } from '@/lib/domain/participants';
import { participantListQuery, participantPage } from '@/lib/domain/participants.schemas';

export const GET = route(
  {
    tag: 'Participants',
    summary: 'List participants',
    auth: auth.tenant('rooms.read'),
    query: participantListQuery,
    response: participantPage,
  },
  ({ auth, params, query }) => listParticipants(auth.tenant, params.id, query),
);
