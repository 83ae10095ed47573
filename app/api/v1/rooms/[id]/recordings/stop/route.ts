import { route, auth } from '@/lib/http/route';
import { stopRoomRecording } from '@/lib/domain/recordings';
import { recordingResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.tenant('media.write'), response: recordingResponse }, ({ auth, params }) =>
  stopRoomRecording(auth.tenant, params.id),
);
