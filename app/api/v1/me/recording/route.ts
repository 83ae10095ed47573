import { route, auth } from '@/lib/http/route';
import { switchRecording } from '@/lib/domain/meeting-tools';
import { recordingSwitchInput } from '@/lib/domain/meeting-tools.schemas';
import { recordingResponse } from '@/lib/domain/recordings.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Start or stop recording the meeting (host or moderator token)',
    auth: auth.participant,
    body: recordingSwitchInput,
    response: recordingResponse,
  },
  ({ auth, body }) => switchRecording(auth, body),
);
