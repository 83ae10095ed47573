import { route, auth } from '@/lib/http/route';
import { stopStream } from '@/lib/domain/streams';
import { streamResponse } from '@/lib/domain/responses.schemas';

export const POST = route({ auth: auth.tenant('media.write'), response: streamResponse }, ({ auth, params }) =>
  stopStream(auth.tenant, params.id),
);
