import { Registry, Histogram, Counter, Gauge, collectDefaultMetrics } from 'prom-client';
import { processState } from '@/lib/runtime/process-state';

/** Prometheus metrics, one registry per process, served by GET /api/v1/metrics. */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'convene_http_request_duration_seconds',
      help: 'API request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'convene_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, retrying, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    credentialCache: new Counter({
      name: 'convene_credential_cache_total',
      help: 'API key lookups answered from the per-process cache (hit) or the database (miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'convene_webhook_queue_depth',
      help: 'Webhook deliveries waiting to be attempted',
      registers: [registry],
    }),
    mediaDuration: new Histogram({
      name: 'convene_media_call_duration_seconds',
      help: 'Media-layer API call latency by method and outcome',
      labelNames: ['method', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

export function metrics() {
  return processState('metrics', createMetrics);
}

export function observeRequest(method: string, route: string, status: number, durationMs: number): void {
  metrics().httpDuration.observe({ method, route, status: String(status) }, durationMs / 1000);
}
