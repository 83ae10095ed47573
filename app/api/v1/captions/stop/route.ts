import { route, auth } from '@/lib/http/route';
import { stopCaptions } from '@/lib/domain/captions';
import { captionsStopInput } from '@/lib/domain/media-features.schemas';

export const POST = route({ auth: auth.tenant('media.write'), body: captionsStopInput }, ({ auth, body }) => stopCaptions(auth.tenant, body.roomId));
