import { route, auth } from '@/lib/http/route';
import { getTranscript } from '@/lib/domain/transcripts';

export const GET = route({ auth: auth.tenant('media.read') }, ({ auth, params }) => getTranscript(auth.tenant, params.id));
