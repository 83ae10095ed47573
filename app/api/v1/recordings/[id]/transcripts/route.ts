import { route, auth } from '@/lib/http/route';
import { transcriptsOfRecording } from '@/lib/domain/transcripts';
import { transcriptPage } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('media.read'), response: transcriptPage }, ({ auth, params }) =>
  transcriptsOfRecording(auth.tenant, params.id),
);
