import { route, auth } from '@/lib/http/route';
import { sessionQuality } from '@/lib/domain/quality-reads';
import { sessionQualityQuery, sessionQualityResponse } from '@/lib/domain/quality.schemas';

export const GET = route(
  {
    tag: 'Sessions',
    summary: 'Call quality of a session: each participant’s series, summary, score and trouble',
    auth: auth.tenant('rooms.read'),
    query: sessionQualityQuery,
    response: sessionQualityResponse,
  },
  ({ auth, params, query }) => sessionQuality(auth.tenant, params.id, query),
);
