import { route, auth } from '@/lib/http/route';
import { removeParticipant } from '@/lib/domain/participants';

export const POST = route({ auth: auth.tenant('rooms.write') }, ({ auth, params }) => removeParticipant(auth.tenant, params.id, params.participantId));
