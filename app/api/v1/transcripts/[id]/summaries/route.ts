import { route, auth } from '@/lib/http/route';
import { requestSummary, summariesOfTranscript } from '@/lib/domain/summaries';
import { summaryInput, summaryPage, summaryResponse } from '@/lib/domain/summaries.schemas';

export const GET = route(
  { tag: 'Recordings', summary: "A transcript's summaries", auth: auth.tenant('media.read'), response: summaryPage },
  ({ auth, params }) => summariesOfTranscript(auth.tenant, params.id),
);

export const POST = route(
  {
    tag: 'Recordings',
    summary: 'Summarise a completed transcript again (a kind and an instruction of your own)',
    auth: auth.tenant('media.write'),
    body: summaryInput,
    status: 202,
    response: summaryResponse,
  },
  ({ auth, params, body }) => requestSummary(auth.tenant, params.id, body),
);
