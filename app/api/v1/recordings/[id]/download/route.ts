import { route, auth } from '@/lib/http/route';
import { downloadRecording } from '@/lib/domain/recordings';

// Streams the file to the tenant's backend (tenant key); no public URL exists.
export const GET = route({ auth: auth.tenant('media.read'), produces: ['video/mp4', 'audio/ogg'] }, ({ auth, params }) => downloadRecording(auth.tenant, params.id));
