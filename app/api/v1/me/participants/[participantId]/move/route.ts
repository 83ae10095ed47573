import { route, auth } from '@/lib/http/route';
import { moveAsModerator } from '@/lib/domain/host-actions';
import { hostMoveInput } from '@/lib/domain/host-actions.schemas';
import { breakoutMoveResponse } from '@/lib/domain/breakouts.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Move one person to an open breakout (host or moderator token)',
    auth: auth.participant,
    body: hostMoveInput,
    response: breakoutMoveResponse,
  },
  ({ auth, params, body }) => moveAsModerator(auth, params.participantId, body),
);
