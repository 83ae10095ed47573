import { route, auth } from '@/lib/http/route';
import { lockAsParticipant } from '@/lib/domain/me';
import { lockInput, roomLockResponse } from '@/lib/domain/me.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Lock or unlock the room (host or moderator token)',
    auth: auth.participant,
    body: lockInput,
    response: roomLockResponse,
  },
  ({ auth, body }) => lockAsParticipant(auth, body),
);
