import { route, auth } from '@/lib/http/route';
import { stopCaptions } from '@/lib/domain/captions';
import { captionsStopInput, captionStatusResponse } from '@/lib/domain/captions.schemas';

export const POST = route(
  {
    tag: 'Captions',
    summary: 'Stop live captions',
    auth: auth.tenant('media.write'),
    body: captionsStopInput,
    response: captionStatusResponse,
  },
  ({ auth, body }) => stopCaptions(auth.tenant, body.roomId),
);
