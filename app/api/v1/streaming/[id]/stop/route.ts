import { route, auth } from '@/lib/http/route';
import { stopStream } from '@/lib/domain/streams';
import { streamResponse } from '@/lib/domain/streams.schemas';

export const POST = route(
  { tag: 'Streaming', summary: 'Stop a stream', auth: auth.tenant('media.write'), response: streamResponse },
  ({ auth, params }) => stopStream(auth.tenant, params.id),
);
