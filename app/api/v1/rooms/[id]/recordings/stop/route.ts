import { route, auth } from '@/lib/http/route';
import { stopRoomRecording } from '@/lib/domain/recordings';

export const POST = route({ auth: auth.tenant('media.write') }, ({ auth, params }) => stopRoomRecording(auth.tenant, params.id));
