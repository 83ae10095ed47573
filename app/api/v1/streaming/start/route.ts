import { route, auth } from '@/lib/http/route';
import { startStream } from '@/lib/domain/streams';
import { streamStartInput } from '@/lib/domain/media-features.schemas';
import { streamResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('media.write'), body: streamStartInput, status: 201, response: streamResponse },
  ({ auth, body }) => startStream(auth.tenant, body),
);
