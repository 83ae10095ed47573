import { route, auth } from '@/lib/http/route';
import { waitingList } from '@/lib/domain/me';
import { waitingPage } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.participant, response: waitingPage }, ({ auth }) => waitingList(auth));
