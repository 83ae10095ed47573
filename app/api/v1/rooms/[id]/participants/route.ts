import { route, auth } from '@/lib/http/route';
import { listParticipants } from '@/lib/domain/participants';
import { participantListQuery } from '@/lib/domain/rooms.schemas';

export const GET = route({ auth: auth.tenant('rooms.read'), query: participantListQuery }, ({ auth, params, query }) =>
  listParticipants(auth.tenant, params.id, query),
);
