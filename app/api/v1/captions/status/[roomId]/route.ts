import { route, auth } from '@/lib/http/route';
import { captionStatus } from '@/lib/domain/captions';
import { captionStatusResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('media.read'), response: captionStatusResponse }, ({ auth, params }) =>
  captionStatus(auth.tenant, params.roomId),
);
