import { route, auth } from '@/lib/http/route';
import { getPoll } from '@/lib/domain/polls';

export const GET = route({ auth: auth.tenant('rooms.read') }, ({ auth, params }) => getPoll(auth.tenant, params.id));
