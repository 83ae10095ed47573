import { route, auth } from '@/lib/http/route';
import { metricsExposition } from '@/lib/domain/observability';

export const GET = route(
  {
    tag: 'Operations',
    summary: 'Prometheus metrics (Bearer METRICS_TOKEN)',
    auth: auth.none,
    produces: ['text/plain'],
  },
  async ({ req }) => {
    const { text, contentType } = await metricsExposition(
      /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1] ?? '',
    );
    return new Response(text, { status: 200, headers: { 'content-type': contentType } });
  },
);
