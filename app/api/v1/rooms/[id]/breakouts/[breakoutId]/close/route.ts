import { route, auth } from '@/lib/http/route';
import { closeBreakout } from '@/lib/domain/breakouts';
import { actingUserInput } from '@/lib/domain/rooms.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), body: actingUserInput }, ({ auth, params, body }) =>
  closeBreakout(auth.tenant, params.id, params.breakoutId, body.actingExternalUserId),
);
