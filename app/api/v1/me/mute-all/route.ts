import { route, auth } from '@/lib/http/route';
import { muteAllAsParticipant } from '@/lib/domain/me';

export const POST = route({ auth: auth.participant }, ({ auth }) => muteAllAsParticipant(auth));
