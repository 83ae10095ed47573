import { route, auth } from '@/lib/http/route';
import { getTranscript } from '@/lib/domain/transcripts';
import { transcriptResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('media.read'), response: transcriptResponse }, ({ auth, params }) =>
  getTranscript(auth.tenant, params.id),
);
