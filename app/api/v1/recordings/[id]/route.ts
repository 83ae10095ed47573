import { route, auth } from '@/lib/http/route';
import { deleteRecording, getRecording } from '@/lib/domain/recordings';
import { deletedResponse, recordingResponse } from '@/lib/domain/recordings.schemas';

export const GET = route(
  { tag: 'Recordings', summary: 'Get a recording', auth: auth.tenant('media.read'), response: recordingResponse },
  ({ auth, params }) => getRecording(auth.tenant, params.id),
);

export const DELETE = route(
  {
    tag: 'Recordings',
    summary: 'Delete a recording and its file',
    auth: auth.tenant('media.write'),
    response: deletedResponse,
  },
  ({ auth, params }) => deleteRecording(auth.tenant, params.id),
);
