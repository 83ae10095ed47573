import { route, auth } from '@/lib/http/route';
import { moveToBreakout } from '@/lib/domain/breakouts';
import { breakoutMoveInput, breakoutMoveResponse } from '@/lib/domain/breakouts.schemas';

export const POST = route(
  {
    tag: 'Breakouts',
    summary: 'Move a participant into a breakout',
    auth: auth.tenant('rooms.write'),
    body: breakoutMoveInput,
    response: breakoutMoveResponse,
  },
  ({ auth, params, body }) =>
    moveToBreakout({ tenant: auth.tenant, roomId: params.id, breakoutId: params.breakoutId, input: body }),
);
