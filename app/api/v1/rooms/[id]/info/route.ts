import { route, auth } from '@/lib/http/route';
import { roomInfo } from '@/lib/domain/rooms';
import { roomInfoResponse } from '@/lib/domain/responses.schemas';

// No credential (rate-limited per client address): the same non-private facts a participant token's metadata carries.
export const GET = route({ auth: auth.publicPerAddress, response: roomInfoResponse }, ({ params }) =>
  roomInfo(params.id),
);
