import { route, auth } from '@/lib/http/route';
import { muteAllAsParticipant } from '@/lib/domain/me';
import { muteAllResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.participant, response: muteAllResponse }, ({ auth }) =>
  muteAllAsParticipant(auth),
);
