import { route, auth } from '@/lib/http/route';
import { getSummary } from '@/lib/domain/summaries';
import { summaryResponse } from '@/lib/domain/summaries.schemas';

export const GET = route(
  { tag: 'Recordings', summary: 'Get a summary', auth: auth.tenant('media.read'), response: summaryResponse },
  ({ auth, params }) => getSummary(auth.tenant, params.id),
);
