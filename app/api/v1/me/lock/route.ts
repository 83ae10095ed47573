import { route, auth } from '@/lib/http/route';
import { lockAsParticipant } from '@/lib/domain/me';
import { lockInput } from '@/lib/domain/rooms.schemas';
import { roomLockResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.participant, body: lockInput, response: roomLockResponse }, ({ auth, body }) =>
  lockAsParticipant(auth, body),
);
