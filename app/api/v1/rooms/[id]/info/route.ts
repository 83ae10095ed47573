import { route, auth } from '@/lib/http/route';
import { roomInfo } from '@/lib/domain/rooms';

// No credential: the same non-private facts a participant token's metadata carries.
export const GET = route({ auth: auth.none }, ({ params }) => roomInfo(params.id));
