import { route, auth } from '@/lib/http/route';
import { getParticipant, updateParticipant } from '@/lib/domain/participants';
import { participantUpdateInput } from '@/lib/domain/rooms.schemas';
import { participantResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('rooms.read'), response: participantResponse }, ({ auth, params }) =>
  getParticipant(auth.tenant, params.id, params.participantId),
);

export const PATCH = route(
  { auth: auth.tenant('rooms.write'), body: participantUpdateInput, response: participantResponse },
  ({ auth, params, body }) => updateParticipant(auth.tenant, params.id, params.participantId, body),
);
