import { route, auth } from '@/lib/http/route';
import { captionsForCall } from '@/lib/domain/captions';
import { callCaptionsResponse, captionStatusResponse } from '@/lib/domain/captions.schemas';
import { switchCaptions } from '@/lib/domain/meeting-tools';
import { captionsSwitchInput } from '@/lib/domain/meeting-tools.schemas';

export const GET = route(
  {
    tag: 'Hosted UI',
    summary: 'Captions in your room (whether they run, and whose transcriptions to show)',
    auth: auth.participant,
    response: callCaptionsResponse,
  },
  ({ auth }) => captionsForCall(auth),
);

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Start or stop live captions in the meeting (host or moderator token)',
    auth: auth.participant,
    body: captionsSwitchInput,
    response: captionStatusResponse,
  },
  ({ auth, body }) => switchCaptions(auth, body),
);
