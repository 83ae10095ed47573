import { route, auth } from '@/lib/http/route';
import { stopRecording } from '@/lib/domain/recordings';
import { recordingResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.tenant('media.write'), response: recordingResponse }, ({ auth, params }) =>
  stopRecording(auth.tenant, params.id),
);
