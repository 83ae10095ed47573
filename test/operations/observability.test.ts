import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { useSuite, seedTenant } from '../support/suite';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { apiClient, startApp } from '../support/app';
import { createLogger, REDACT_PATHS } from '@/lib/log';
import { db } from '@/lib/db';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const suite = useSuite({ env: () => ({ METRICS_TOKEN, WEBHOOK_TIMEOUT_MS: '5000' }) });

describe('structured logs', () => {
  it('redacts every path on the redaction list', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    const secret = 'cv_live_SHOULDNEVERAPPEAR0000000000000000000';
    logger.info(
      {
        apiKey: secret,
        plainTextKey: secret,
        token: secret,
        secret,
        webhookSecret: secret,
        streamKey: secret,
        password: secret,
        authorization: secret,
        headers: { authorization: secret, 'x-api-key': secret, 'x-provider-key': secret, cookie: secret },
        nested: { apiKey: secret, token: secret, plainTextKey: secret, secret, streamKey: secret, password: secret },
        requestId: 'req_keep',
      },
      'test',
    );
    const line = lines.join('');
    expect(line).not.toContain(secret);
    expect(line).toContain('req_keep');
    expect(line.match(/\[redacted\]/g)!.length).toBeGreaterThanOrEqual(16);
    expect(REDACT_PATHS.length).toBeGreaterThan(10);
  });

  it('every request is logged with request id, tenant, route, status and duration', async () => {
    const t = await seedTenant();
    const res = await suite.api('GET', '/api/v1/tenant', { key: t.key });
    const line = suite.app
      .output()
      .split('\n')
      .find((l) => l.includes(res.headers.get('x-request-id')!))!;
    expect(JSON.parse(line)).toMatchObject({
      requestId: res.headers.get('x-request-id'),
      tenantId: t.tenant.id,
      route: '/api/v1/tenant',
      method: 'GET',
      status: 200,
      durationMs: expect.any(Number),
    });
    expect(suite.app.output()).not.toContain(t.key);
  });
});

describe('metrics', () => {
  it('serves Prometheus text behind the metrics token', async () => {
    const t = await seedTenant();
    const room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: t.key });
    expect((await suite.api('GET', '/api/v1/metrics')).status).toBe(401);
    expect((await suite.api('GET', '/api/v1/metrics', { bearer: 'wrong' })).status).toBe(401);
    const res = await suite.api('GET', '/api/v1/metrics', { bearer: METRICS_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/# TYPE convene_http_request_duration_seconds histogram/);
    expect(res.text).toMatch(
      /convene_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/rooms",status="201"\} 1/,
    );
    expect(res.text).toMatch(
      /convene_http_request_duration_seconds_bucket\{le="0.05",method="POST",route="\/api\/v1\/rooms\/\[id\]\/end",status="200"\}/,
    );
    expect(res.text).toMatch(/# TYPE convene_webhook_queue_depth gauge/);
    expect(res.text).toMatch(/convene_media_call_duration_seconds_count\{method="deleteRoom",outcome="(ok|error)"\}/);
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM lets an in-flight delivery attempt finish', async () => {
    // A receiver that takes 1.5 s to answer.
    const receiver = await startWebhookReceiver(() => ({ status: 200, body: 'ok', delayMs: 1500 }));
    const t = await seedTenant({ webhookUrl: receiver.url });
    const sent = await suite.api('POST', '/api/v1/webhooks/test', { key: t.key, body: {} });
    await receiver.waitFor(1); // the attempt is now waiting on the slow receiver
    await suite.app.stop(); // SIGTERM, and wait for the process to exit
    const delivery = await db().webhookDelivery.findUniqueOrThrow({
      where: { id: sent.body.deliveryId },
      include: { attempts: true },
    });
    expect(delivery.status).toBe('DELIVERED');
    expect(delivery.attempts).toHaveLength(1);
    await receiver.close();
    suite.app = await startApp(suite.env);
    suite.api = apiClient(suite.app.baseUrl);
  });
});
