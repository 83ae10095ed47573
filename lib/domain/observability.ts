import { config } from '@/lib/config';
import { constantTimeEqual } from '@/lib/crypto';
import { ApiError } from '@/lib/errors';
import { metrics } from '@/lib/metrics';

/** Prometheus exposition, behind METRICS_TOKEN (Bearer). Without a token configured: 404. */
export async function metricsResponse(authorization: string | null): Promise<Response> {
  const token = config().METRICS_TOKEN;
  if (!token) throw new ApiError('NOT_FOUND', 'Metrics are not enabled (set METRICS_TOKEN).');
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  if (!constantTimeEqual(given, token)) throw new ApiError('UNAUTHENTICATED', 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.');
  const registry = metrics().registry;
  return new Response(await registry.metrics(), { status: 200, headers: { 'content-type': registry.contentType } });
}
