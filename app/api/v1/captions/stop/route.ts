import { route, auth } from '@/lib/http/route';
import { stopCaptions } from '@/lib/domain/captions';
import { captionsStopInput } from '@/lib/domain/media-features.schemas';
import { captionStatusResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('media.write'), body: captionsStopInput, response: captionStatusResponse },
  ({ auth, body }) => stopCaptions(auth.tenant, body.roomId),
);
