import { route, auth } from '@/lib/http/route';
import { getStream } from '@/lib/domain/streams';
import { streamResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('media.read'), response: streamResponse }, ({ auth, params }) =>
  getStream(auth.tenant, params.id),
);
