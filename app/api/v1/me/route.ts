import { route, auth } from '@/lib/http/route';
import { me } from '@/lib/domain/me';

export const GET = route({ auth: auth.participant }, ({ auth }) => me(auth));
