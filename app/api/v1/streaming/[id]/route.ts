import { route, auth } from '@/lib/http/route';
import { getStream } from '@/lib/domain/streams';
import { streamResponse } from '@/lib/domain/streams.schemas';

export const GET = route(
  {
    tag: 'Streaming',
    summary: 'Get a stream (keys masked)',
    auth: auth.tenant('media.read'),
    response: streamResponse,
  },
  ({ auth, params }) => getStream(auth.tenant, params.id),
);
