import { route, auth } from '@/lib/http/route';
import { stopRecording } from '@/lib/domain/recordings';
import { recordingResponse } from '@/lib/domain/recordings.schemas';

export const POST = route(
  { tag: 'Recordings', summary: 'Stop a recording', auth: auth.tenant('media.write'), response: recordingResponse },
  ({ auth, params }) => stopRecording(auth.tenant, params.id),
);
