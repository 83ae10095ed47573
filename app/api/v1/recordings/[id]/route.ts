import { route, auth } from '@/lib/http/route';
import { deleteRecording, getRecording } from '@/lib/domain/recordings';
import { deletedResponse, recordingResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('media.read'), response: recordingResponse }, ({ auth, params }) =>
  getRecording(auth.tenant, params.id),
);

export const DELETE = route({ auth: auth.tenant('media.write'), response: deletedResponse }, ({ auth, params }) =>
  deleteRecording(auth.tenant, params.id),
);
