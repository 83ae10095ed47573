import { route, auth } from '@/lib/http/route';
import { stopStream } from '@/lib/domain/streams';

export const POST = route({ auth: auth.tenant('media.write') }, ({ auth, params }) => stopStream(auth.tenant, params.id));
