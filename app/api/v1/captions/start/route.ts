import { route, auth } from '@/lib/http/route';
import { startCaptions } from '@/lib/domain/captions';
import { captionsInput, captionStatusResponse } from '@/lib/domain/captions.schemas';

export const POST = route(
  {
    tag: 'Captions',
    summary: 'Start live captions (refused with CAPTIONS_NOT_CONFIGURED where no speech-to-text service runs)',
    auth: auth.tenant('media.write'),
    body: captionsInput,
    response: captionStatusResponse,
  },
  ({ auth, body }) => startCaptions(auth.tenant, body),
);
