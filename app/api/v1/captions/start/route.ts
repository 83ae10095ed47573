import { route, auth } from '@/lib/http/route';
import { startCaptions } from '@/lib/domain/captions';
import { captionsInput } from '@/lib/domain/media-features.schemas';
import { captionStatusResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('media.write'), body: captionsInput, response: captionStatusResponse },
  ({ auth, body }) => startCaptions(auth.tenant, body),
);
