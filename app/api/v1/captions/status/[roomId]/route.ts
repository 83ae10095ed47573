import { route, auth } from '@/lib/http/route';
import { captionStatus } from '@/lib/domain/captions';
import { captionStatusResponse } from '@/lib/domain/captions.schemas';

export const GET = route(
  {
    tag: 'Captions',
    summary: 'Caption status of a room (whether the captions agent is in it now)',
    auth: auth.tenant('media.read'),
    response: captionStatusResponse,
  },
  ({ auth, params }) => captionStatus(auth.tenant, params.roomId),
);
