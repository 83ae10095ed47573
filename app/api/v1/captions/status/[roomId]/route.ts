import { route, auth } from '@/lib/http/route';
import { captionStatus } from '@/lib/domain/captions';

export const GET = route({ auth: auth.tenant('media.read') }, ({ auth, params }) => captionStatus(auth.tenant, params.roomId));
