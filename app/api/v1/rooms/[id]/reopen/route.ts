import { route, auth } from '@/lib/http/route';
import { reopenRoom } from '@/lib/domain/rooms';

export const POST = route({ auth: auth.tenant('rooms.write') }, ({ auth, params }) => reopenRoom(auth.tenant, params.id));
