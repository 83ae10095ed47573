import { randomUUID } from 'node:crypto';
import type { Event, Tenant, WebhookDelivery } from '@/lib/generated/prisma/client';
import { deliverySql, sql } from '@/lib/db';
import { config } from '@/lib/config';
import { decryptSecret } from '@/lib/crypto';
import { signatureHeader } from '@/lib/events/signature';
import { postJson } from '@/lib/net/post';
import { metrics } from '@/lib/metrics';

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

/** Everything one attempt needs, read with the delivery (by id, or as the dispatcher leases it). */
export interface DueDelivery
  extends Pick<WebhookDelivery, 'id' | 'status' | 'attemptCount' | 'url'>,
    Pick<Tenant, 'webhookSecretEncrypted' | 'webhookSecretPreviousEncrypted' | 'webhookSecretPreviousExpiresAt'> {
  event: Pick<Event, 'id' | 'name' | 'data'> & { occurredAt: string | Date };
}

/**
 * The columns of a DueDelivery, over `d` (WebhookDelivery), `e` (its Event) and `t` (its Tenant),
 * as the dispatcher's lease also returns them (convene_lease_deliveries). occurredAt (a UTC
 * timestamp without zone) leaves as a timestamptz, so its JSON carries the offset.
 */
const DUE_DELIVERY_COLUMNS = `d.id, d.status::text AS status, d."attemptCount", d.url,
  t."webhookSecretEncrypted", t."webhookSecretPreviousEncrypted", t."webhookSecretPreviousExpiresAt",
  json_build_object('id', e.id, 'name', e.name, 'occurredAt', e."occurredAt" AT TIME ZONE 'UTC', 'data', e.data) AS event`;

/** One finished HTTP attempt, not yet written: the delivery's next state and its attempt log row. */
export interface AttemptRecord {
  attemptId: string;
  deliveryId: string;
  attempt: number;
  outcome: Exclude<AttemptOutcome, 'skipped'>;
  status: 'DELIVERED' | 'RETRYING' | 'FAILED';
  /** ISO 8601 UTC: when the attempt ended, and when the next one is due (null: none). */
  at: string;
  retryAt: string | null;
  error: string | null;
  url: string;
  headers: Record<string, string>;
  body: string;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  willRetry: boolean;
}

/**
 * A receiver's text goes into a jsonb/text column: PostgreSQL refuses NUL, and a body cut at the
 * byte limit may end in half a surrogate pair.
 */
const storable = (text: string | null) =>
  text === null
    ? null
    : text
        .replaceAll('\0', '')
        .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Makes the attempt numbered `attempt` (1-based) of a delivery over HTTP; writes nothing. */
export async function sendAttempt(delivery: DueDelivery, attempt: number): Promise<AttemptRecord> {
  const c = config();
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
  const now = Date.now();
  return {
    attemptId: randomUUID(),
    deliveryId: delivery.id,
    attempt,
    outcome: ok ? 'delivered' : willRetry ? 'retrying' : 'failed',
    status: ok ? 'DELIVERED' : willRetry ? 'RETRYING' : 'FAILED',
    at: new Date(now).toISOString(),
    retryAt: willRetry ? new Date(now + backoffMs(attempt)).toISOString() : null,
    error: ok ? null : storable(result.error ?? `receiver answered ${result.status}`),
    url: delivery.url,
    headers,
    body,
    responseStatus: result.status,
    responseBody: storable(result.body),
    durationMs: result.durationMs,
    willRetry,
  };
}

/**
 * Writes finished attempts, any number in ONE statement: each delivery's new state and its attempt
 * log row land together, conditional on the attempt count, so an attempt that was already recorded
 * (a duplicate run, or a lease that expired and was attempted again) claims nothing and logs
 * nothing. Returns the ids of the deliveries whose attempt was recorded. Timestamps are ISO strings
 * converted in SQL: correct whatever the driver's or server's time zone.
 */
export async function recordAttempts(records: AttemptRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const { rows } = await deliverySql().query<{ deliveryId: string }>({
    name: 'webhook_record_attempts',
    text: `
      WITH r AS (
        SELECT * FROM json_to_recordset($1::json) AS r(
          "attemptId" text, "deliveryId" text, attempt int, status "DeliveryStatus", outcome text, at text, "retryAt" text,
          error text, url text, headers jsonb, body text, "responseStatus" int, "responseBody" text, "durationMs" int,
          "willRetry" boolean)
      ), claimed AS (
        UPDATE "WebhookDelivery" AS d
        SET "attemptCount" = r.attempt, status = r.status,
            "deliveredAt" = CASE WHEN r.outcome = 'delivered' THEN r.at::timestamptz AT TIME ZONE 'UTC' END,
            "nextAttemptAt" = r."retryAt"::timestamptz AT TIME ZONE 'UTC', "leasedUntil" = NULL, "lastError" = r.error,
            "updatedAt" = r.at::timestamptz AT TIME ZONE 'UTC'
        FROM r
        WHERE d.id = r."deliveryId" AND d."attemptCount" = r.attempt - 1
        RETURNING d.id
      )
      INSERT INTO "WebhookAttempt" (id, "deliveryId", "attemptNumber", "requestUrl", "requestHeaders", "requestBody",
                                    "responseStatus", "responseBody", error, "durationMs", "willRetry", "nextRetryAt", "createdAt")
      SELECT r."attemptId", r."deliveryId", r.attempt, r.url, r.headers, r.body, r."responseStatus", r."responseBody", r.error,
             r."durationMs", r."willRetry", r."retryAt"::timestamptz AT TIME ZONE 'UTC', r.at::timestamptz AT TIME ZONE 'UTC'
      FROM r JOIN claimed ON claimed.id = r."deliveryId"
      RETURNING "deliveryId"`,
    values: [JSON.stringify(records)],
  });
  const recorded = new Set(rows.map((r) => r.deliveryId));
  for (const r of records) if (recorded.has(r.deliveryId)) metrics().webhookDeliveries.inc({ outcome: r.outcome });
  return recorded;
}

/**
 * One HTTP attempt of one delivery, read by id and recorded at once: what Inngest drives
 * (lib/events/inngest.ts); the in-process dispatcher (lib/events/runner.ts) leases deliveries with
 * the same columns and records its attempts in batches. `attempt` is the 1-based number of the
 * attempt being made; an attempt that already happened (a duplicate, or a delivery already
 * finished) does nothing.
 */
export async function attemptDelivery(deliveryId: string, attempt: number): Promise<AttemptOutcome> {
  const { rows } = await sql().query<DueDelivery>({
    name: 'webhook_due_delivery',
    text: `SELECT ${DUE_DELIVERY_COLUMNS}
           FROM "WebhookDelivery" d JOIN "Event" e ON e.id = d."eventId" JOIN "Tenant" t ON t.id = d."tenantId"
           WHERE d.id = $1`,
    values: [deliveryId],
  });
  const delivery = rows[0];
  if (
    !delivery ||
    delivery.status === 'DELIVERED' ||
    delivery.status === 'FAILED' ||
    delivery.attemptCount !== attempt - 1
  )
    return 'skipped';
  const record = await sendAttempt(delivery, attempt);
  return (await recordAttempts([record])).has(delivery.id) ? record.outcome : 'skipped';
}
