import { route, auth } from '@/lib/http/route';
import { moveToBreakout } from '@/lib/domain/breakouts';
import { breakoutMoveInput } from '@/lib/domain/rooms.schemas';
import { breakoutMoveResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: breakoutMoveInput, response: breakoutMoveResponse },
  ({ auth, params, body }) => moveToBreakout(auth.tenant, params.id, params.breakoutId, body),
);
