import { route, auth } from '@/lib/http/route';
import { muteAsModerator } from '@/lib/domain/host-actions';
import { hostMuteInput, hostMuteResponse } from '@/lib/domain/host-actions.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Mute one person’s microphone or stop their camera (host or moderator token)',
    auth: auth.participant,
    body: hostMuteInput,
    response: hostMuteResponse,
  },
  ({ auth, params, body }) => muteAsModerator(auth, params.participantId, body),
);
