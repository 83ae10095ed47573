import { route, auth } from '@/lib/http/route';
import { stopRoomRecording } from '@/lib/domain/recordings';
import { recordingResponse } from '@/lib/domain/recordings.schemas';

export const POST = route(
  {
    tag: 'Recordings',
    summary: "Stop the room's recording",
    auth: auth.tenant('media.write'),
    response: recordingResponse,
  },
  ({ auth, params }) => stopRoomRecording(auth.tenant, params.id),
);
