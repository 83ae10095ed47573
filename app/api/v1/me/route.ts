import { route, auth } from '@/lib/http/route';
import { me } from '@/lib/domain/me';
import { meResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.participantEvenIfRefused, response: meResponse }, ({ auth }) => me(auth));
