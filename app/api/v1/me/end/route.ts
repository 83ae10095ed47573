import { route, auth } from '@/lib/http/route';
import { endAsModerator } from '@/lib/domain/host-actions';
import { roomResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'End the meeting for everyone (host or moderator token)',
    auth: auth.participant,
    response: roomResponse,
  },
  ({ auth }) => endAsModerator(auth),
);
