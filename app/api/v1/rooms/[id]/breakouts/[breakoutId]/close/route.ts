import { route, auth } from '@/lib/http/route';
import { closeBreakout } from '@/lib/domain/breakouts';
import { actingUserInput } from '@/lib/domain/rooms.schemas';
import { breakoutResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('rooms.write'), body: actingUserInput, response: breakoutResponse },
  ({ auth, params, body }) => closeBreakout(auth.tenant, params.id, params.breakoutId, body.actingExternalUserId),
);
