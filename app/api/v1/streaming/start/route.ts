import { route, auth } from '@/lib/http/route';
import { startStream } from '@/lib/domain/streams';
import { streamStartInput, streamResponse } from '@/lib/domain/streams.schemas';

export const POST = route(
  {
    tag: 'Streaming',
    summary: 'Start an RTMP live stream',
    auth: auth.tenant('media.write'),
    body: streamStartInput,
    status: 201,
    response: streamResponse,
  },
  ({ auth, body }) => startStream(auth.tenant, body),
);
