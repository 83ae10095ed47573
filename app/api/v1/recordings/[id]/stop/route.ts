import { route, auth } from '@/lib/http/route';
import { stopRecording } from '@/lib/domain/recordings';

export const POST = route({ auth: auth.tenant('media.write') }, ({ auth, params }) => stopRecording(auth.tenant, params.id));
