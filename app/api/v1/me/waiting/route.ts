import { route, auth } from '@/lib/http/route';
import { waitingList } from '@/lib/domain/me';

export const GET = route({ auth: auth.participant }, ({ auth }) => waitingList(auth));
