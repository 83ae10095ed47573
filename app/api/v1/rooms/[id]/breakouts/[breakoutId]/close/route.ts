import { route, auth } from '@/lib/http/route';
import { closeBreakout } from '@/lib/domain/breakouts';
import { actingUserInput } from '@/lib/domain/participants.schemas';
import { breakoutResponse } from '@/lib/domain/breakouts.schemas';

export const POST = route(
  {
    tag: 'Breakouts',
    summary: 'Close a breakout',
    auth: auth.tenant('rooms.write'),
    body: actingUserInput,
    response: breakoutResponse,
  },
  ({ auth, params, body }) =>
    closeBreakout({
      tenant: auth.tenant,
      roomId: params.id,
      breakoutId: params.breakoutId,
      actingExternalUserId: body.actingExternalUserId,
    }),
);
