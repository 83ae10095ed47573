import { route, auth } from '@/lib/http/route';
import { getTranscript } from '@/lib/domain/transcripts';
import { transcriptResponse } from '@/lib/domain/transcripts.schemas';

export const GET = route(
  { tag: 'Recordings', summary: 'Get a transcript', auth: auth.tenant('media.read'), response: transcriptResponse },
  ({ auth, params }) => getTranscript(auth.tenant, params.id),
);
