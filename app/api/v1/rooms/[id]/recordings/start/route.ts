import { route, auth } from '@/lib/http/route';
import { startRecording } from '@/lib/domain/recordings';
import { recordingStartInput } from '@/lib/domain/media-features.schemas';
import { recordingResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('media.write'), body: recordingStartInput, status: 201, response: recordingResponse },
  ({ auth, params, body }) => startRecording(auth.tenant, params.id, body),
);
