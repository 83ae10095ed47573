import { route, auth } from '@/lib/http/route';
import { muteAllAsParticipant } from '@/lib/domain/me';
import { muteAllResponse } from '@/lib/domain/rooms.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Mute everyone else (host or moderator token)',
    auth: auth.participant,
    response: muteAllResponse,
  },
  ({ auth }) => muteAllAsParticipant(auth),
);
