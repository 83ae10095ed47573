import { route, auth } from '@/lib/http/route';
import { transcriptsOfRecording } from '@/lib/domain/transcript-reads';
import { transcriptPage } from '@/lib/domain/transcripts.schemas';

export const GET = route(
  {
    tag: 'Recordings',
    summary: "A recording's transcripts",
    auth: auth.tenant('media.read'),
    response: transcriptPage,
  },
  ({ auth, params }) => transcriptsOfRecording(auth.tenant, params.id),
);
