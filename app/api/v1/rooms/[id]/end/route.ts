import { route, auth } from '@/lib/http/route';
import { endRoom } from '@/lib/domain/rooms';

export const POST = route({ auth: auth.tenant('rooms.write') }, ({ auth, params }) => endRoom(auth.tenant, params.id));
