import { route, auth } from '@/lib/http/route';
import { lockAsParticipant } from '@/lib/domain/me';
import { lockInput } from '@/lib/domain/rooms.schemas';

export const POST = route({ auth: auth.participant, body: lockInput }, ({ auth, body }) => lockAsParticipant(auth, body));
