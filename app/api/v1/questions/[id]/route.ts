import { route, auth } from '@/lib/http/route';
import { getQuestion } from '@/lib/domain/questions';

export const GET = route({ auth: auth.tenant('rooms.read') }, ({ auth, params }) => getQuestion(auth.tenant, params.id));
