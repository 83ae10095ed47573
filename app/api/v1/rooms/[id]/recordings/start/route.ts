import { route, auth } from '@/lib/http/route';
import { startRecording } from '@/lib/domain/recordings';
import { recordingStartInput, recordingResponse } from '@/lib/domain/recordings.schemas';

export const POST = route(
  {
    tag: 'Recordings',
    summary: 'Start recording a room',
    auth: auth.tenant('media.write'),
    body: recordingStartInput,
    status: 201,
    response: recordingResponse,
  },
  ({ auth, params, body }) => startRecording(auth.tenant, params.id, body),
);
