import { route, auth } from '@/lib/http/route';
import { admitAsParticipant } from '@/lib/domain/me';

export const POST = route({ auth: auth.participant }, ({ auth, params }) => admitAsParticipant(auth, params.participantId, false));
