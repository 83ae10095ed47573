import { randomUUID } from 'node:crypto';
import type { Event, Tenant, WebhookDelivery } from '@/lib/generated/prisma/client';
import { db } from '@/lib/db';
import { config } from '@/lib/config';
import { decryptSecret } from '@/lib/crypto';
import { signatureHeader } from '@/lib/events/signature';
import { postJson } from '@/lib/net/post';
import { metrics } from '@/lib/metrics';
import { iso } from '@/lib/domain/time';

/** Response bodies are kept up to this many bytes in the attempt log. */
const RESPONSE_BODY_LIMIT = 4096;

/** Envelope v2, serialised once so the signed bytes are the sent bytes. */
export function envelopeBody(event: Pick<Event, 'id' | 'name' | 'occurredAt' | 'data'>): string {
  return JSON.stringify({
    version: 2,
    id: event.id,
    event: event.name,
    occurredAt: event.occurredAt.toISOString(),
    data: event.data,
  });
}

/** The secrets that sign right now: the current one, and the previous one during a rotation overlap. */
function activeSecrets(
  tenant: Pick<Tenant, 'webhookSecretEncrypted' | 'webhookSecretPreviousEncrypted' | 'webhookSecretPreviousExpiresAt'>,
  now = new Date(),
): string[] {
  const secrets: string[] = [];
  if (tenant.webhookSecretEncrypted) secrets.push(decryptSecret(tenant.webhookSecretEncrypted));
  if (
    tenant.webhookSecretPreviousEncrypted &&
    tenant.webhookSecretPreviousExpiresAt &&
    tenant.webhookSecretPreviousExpiresAt > now
  ) {
    secrets.push(decryptSecret(tenant.webhookSecretPreviousEncrypted));
  }
  return secrets;
}

export function deliveryHeaders(
  event: Pick<Event, 'id' | 'name' | 'occurredAt'>,
  body: string,
  secrets: string[],
): Record<string, string> {
  const timestamp = event.occurredAt.toISOString();
  return {
    'content-type': 'application/json',
    'user-agent': 'Convene-Webhooks/2',
    'x-webhook-event': event.name,
    'x-webhook-id': event.id,
    'x-webhook-timestamp': timestamp,
    'x-webhook-version': '2',
    'x-webhook-signature': signatureHeader(secrets, timestamp, body),
  };
}

/** Delay after attempt n (1-based) before attempt n+1: base · 2^(n-1) — 5, 10, 20, 40, 80 s by default. */
export function backoffMs(attempt: number, baseMs = config().WEBHOOK_BACKOFF_BASE_MS): number {
  return baseMs * 2 ** (attempt - 1);
}

type AttemptOutcome = 'delivered' | 'retrying' | 'failed' | 'skipped';

/**
 * One HTTP attempt of one delivery: the single code path both runners drive (the in-process
 * dispatcher that leases delivery rows, lib/events/runner.ts, and Inngest, lib/events/inngest.ts).
 * `attempt` is the 1-based number of the attempt being made; an attempt that already happened (a
 * duplicate, or a delivery already finished) does nothing.
 */
export async function attemptDelivery(deliveryId: string, attempt: number): Promise<AttemptOutcome> {
  const c = config();
  // One round trip for everything the attempt needs (this is the hot path of the pipeline).
  const [delivery] = await db().$queryRaw<
    (Pick<WebhookDelivery, 'id' | 'status' | 'attemptCount' | 'url'> &
      Pick<Tenant, 'webhookSecretEncrypted' | 'webhookSecretPreviousEncrypted' | 'webhookSecretPreviousExpiresAt'> & {
        event: Pick<Event, 'id' | 'name' | 'occurredAt' | 'data'>;
      })[]
  >`
    SELECT d.id, d.status::text AS status, d."attemptCount", d.url,
           t."webhookSecretEncrypted", t."webhookSecretPreviousEncrypted", t."webhookSecretPreviousExpiresAt",
           json_build_object('id', e.id, 'name', e.name, 'occurredAt', e."occurredAt", 'data', e.data) AS event
    FROM "WebhookDelivery" d JOIN "Event" e ON e.id = d."eventId" JOIN "Tenant" t ON t.id = d."tenantId"
    WHERE d.id = ${deliveryId}`;
  if (
    !delivery ||
    delivery.status === 'DELIVERED' ||
    delivery.status === 'FAILED' ||
    delivery.attemptCount !== attempt - 1
  )
    return 'skipped';
  const event = { ...delivery.event, occurredAt: new Date(delivery.event.occurredAt) };

  const body = envelopeBody(event);
  const headers = deliveryHeaders(event, body, activeSecrets(delivery));
  const result = await postJson(delivery.url, headers, body, {
    timeoutMs: c.WEBHOOK_TIMEOUT_MS,
    allowPrivate: c.WEBHOOK_ALLOW_INSECURE_URLS,
    maxResponseBytes: RESPONSE_BODY_LIMIT,
  });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const willRetry = !ok && attempt < c.WEBHOOK_MAX_ATTEMPTS;
  const now = new Date();
  const nextRetryAt = willRetry ? new Date(now.getTime() + backoffMs(attempt)) : null;
  const error = ok ? null : (result.error ?? `receiver answered ${result.status}`);
  const outcome: AttemptOutcome = ok ? 'delivered' : willRetry ? 'retrying' : 'failed';
  const status = ok ? 'DELIVERED' : willRetry ? 'RETRYING' : 'FAILED';

  // Timestamps as ISO strings converted in SQL: correct whatever the driver's or server's time zone.
  const nowUtc = now.toISOString();
  const retryUtc = iso(nextRetryAt);
  // One statement, conditional on the attempt count: the delivery's new state and the attempt log
  // land together, and a duplicate job racing this one claims nothing and logs nothing.
  const logged = await db().$queryRaw<{ id: string }[]>`
    WITH claimed AS (
      UPDATE "WebhookDelivery"
      SET "attemptCount" = ${attempt}, status = ${status}::"DeliveryStatus", "deliveredAt" = ${ok ? nowUtc : null}::timestamptz AT TIME ZONE 'UTC',
          "nextAttemptAt" = ${retryUtc}::timestamptz AT TIME ZONE 'UTC', "leasedUntil" = NULL, "lastError" = ${error},
          "updatedAt" = ${nowUtc}::timestamptz AT TIME ZONE 'UTC'
      WHERE id = ${delivery.id} AND "attemptCount" = ${attempt - 1}
      RETURNING id
    )
    INSERT INTO "WebhookAttempt" (id, "deliveryId", "attemptNumber", "requestUrl", "requestHeaders", "requestBody",
                                  "responseStatus", "responseBody", error, "durationMs", "willRetry", "nextRetryAt", "createdAt")
    SELECT ${randomUUID()}, claimed.id, ${attempt}::int, ${delivery.url}, ${JSON.stringify(headers)}::jsonb, ${body},
           ${result.status}::int, ${result.body}::text, ${error}::text, ${result.durationMs}::int, ${willRetry}::boolean,
           ${retryUtc}::timestamptz AT TIME ZONE 'UTC', ${nowUtc}::timestamptz AT TIME ZONE 'UTC'
    FROM claimed
    RETURNING id`;
  if (logged.length === 0) return 'skipped';
  metrics().webhookDeliveries.inc({ outcome });
  return outcome;
}
