import { config } from '@/lib/config';
import { constantTimeEqual } from '@/lib/crypto';
import { ApiError } from '@/lib/errors';
import { metrics } from '@/lib/metrics';

/** Prometheus exposition, behind METRICS_TOKEN. Without a token configured: 404. */
export async function metricsExposition(givenToken: string): Promise<{ text: string; contentType: string }> {
  const token = config().METRICS_TOKEN;
  if (!token) throw new ApiError('NOT_FOUND', 'Metrics are not enabled (set METRICS_TOKEN).');
  if (!constantTimeEqual(givenToken, token))
    throw new ApiError('UNAUTHENTICATED', 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.');
  const registry = metrics().registry;
  return { text: await registry.metrics(), contentType: registry.contentType };
}
