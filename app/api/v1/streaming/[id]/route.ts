import { route, auth } from '@/lib/http/route';
import { getStream } from '@/lib/domain/streams';

export const GET = route({ auth: auth.tenant('media.read') }, ({ auth, params }) => getStream(auth.tenant, params.id));
