import { route, auth } from '@/lib/http/route';
import { deleteRecording, getRecording } from '@/lib/domain/recordings';

export const GET = route({ auth: auth.tenant('media.read') }, ({ auth, params }) => getRecording(auth.tenant, params.id));

export const DELETE = route({ auth: auth.tenant('media.write') }, ({ auth, params }) => deleteRecording(auth.tenant, params.id));
