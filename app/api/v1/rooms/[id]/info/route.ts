import { route, auth } from '@/lib/http/route';
import { roomInfo } from '@/lib/domain/rooms';
import { roomInfoResponse } from '@/lib/domain/rooms.schemas';

// No credential (rate-limited per client address): the same non-private facts a participant token's metadata carries.
export const GET = route(
  {
    tag: 'Rooms',
    summary: 'Public room facts (no credential)',
    auth: auth.publicPerAddress,
    response: roomInfoResponse,
  },
  ({ params }) => roomInfo(params.id),
);
