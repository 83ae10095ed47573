import { route, auth } from '@/lib/http/route';
import { transcriptsOfRecording } from '@/lib/domain/transcripts';

export const GET = route({ auth: auth.tenant('media.read') }, ({ auth, params }) => transcriptsOfRecording(auth.tenant, params.id));
