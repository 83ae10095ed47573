import type { Tenant, WebhookAttempt, WebhookDelivery } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, Prisma, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { encryptSecret } from '@/lib/crypto';
import { ApiError, invalidState, notFound, validationFailed } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { assertPublicUrl, UnsafeUrlError } from '@/lib/net/ssrf';
import { generateWebhookSecret } from '@/lib/domain/keys';
import { tenantView } from '@/lib/domain/tenants';
import { emitEvent, outboxWritten } from '@/lib/events/outbox';
import type {
  deliveryListQuery,
  webhookSettingsInput,
  WebhookAttemptResponse,
  WebhookDeliveryResponse,
} from '@/lib/domain/webhooks.schemas';
import { credentialsChanged } from '@/lib/runtime/credential-cache';
import { TEST_EVENT_DATA, type EventName } from '@/lib/events/catalog';
import { iso } from '@/lib/domain/time';

/** A webhook URL as stored: normalised, https and public unless WEBHOOK_ALLOW_INSECURE_URLS. */
export async function validateWebhookUrl(raw: string | null | undefined): Promise<string | null | undefined> {
  if (!raw) return raw === undefined ? undefined : null;
  try {
    return (await assertPublicUrl(raw, { allowInsecure: config().WEBHOOK_ALLOW_INSECURE_URLS })).toString();
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw validationFailed('webhookUrl', err.message);
    throw err;
  }
}

export async function updateWebhookSettings(tenant: Tenant, input: z.infer<typeof webhookSettingsInput>) {
  const webhookUrl = await validateWebhookUrl(input.webhookUrl);
  const updated = await db().tenant.update({
    where: { id: tenant.id },
    data: {
      ...(input.webhookUrl !== undefined ? { webhookUrl: webhookUrl || null } : {}),
      ...(input.webhookEvents !== undefined ? { webhookEvents: input.webhookEvents ?? Prisma.DbNull } : {}),
    },
  });
  credentialsChanged();
  return tenantView(updated).webhook;
}

/** New secret, shown once; the previous one keeps signing for overlapSeconds (both signatures sent). */
export async function rotateWebhookSecret(tenantId: string, overlapSeconds: number, now = new Date()) {
  const secret = generateWebhookSecret();
  const tenant = await db().tenant.findUniqueOrThrow({ where: { id: tenantId } });
  const previousExpiresAt =
    overlapSeconds > 0 && tenant.webhookSecretEncrypted ? new Date(now.getTime() + overlapSeconds * 1000) : null;
  await db().tenant.update({
    where: { id: tenantId },
    data: {
      webhookSecretEncrypted: encryptSecret(secret),
      webhookSecretPreviousEncrypted: previousExpiresAt ? tenant.webhookSecretEncrypted : null,
      webhookSecretPreviousExpiresAt: previousExpiresAt,
    },
  });
  credentialsChanged();
  return { webhookSecret: secret, previousSecretExpiresAt: iso(previousExpiresAt) };
}

/** A synthetic signed event through the real queue, signer and retry pipeline; ignores the filter. */
export async function sendTestEvent(tenant: Tenant, eventName: EventName) {
  const fresh = await db().tenant.findUniqueOrThrow({ where: { id: tenant.id } });
  if (!fresh.webhookUrl)
    throw invalidState('No webhook URL is configured: set one with PATCH /api/v1/tenant/webhook first.');
  const { eventId, deliveryId } = await db().$transaction((tx) =>
    emitEvent({ tx, tenantId: tenant.id, name: eventName, data: TEST_EVENT_DATA, force: true }),
  );
  outboxWritten();
  return { eventId, deliveryId: deliveryId!, event: eventName, status: 'pending' as const };
}

function attemptView(a: WebhookAttempt): WebhookAttemptResponse {
  return {
    attemptNumber: a.attemptNumber,
    requestUrl: a.requestUrl,
    requestHeaders: a.requestHeaders as Record<string, string>,
    requestBody: a.requestBody,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    durationMs: a.durationMs,
    willRetry: a.willRetry,
    nextRetryAt: iso(a.nextRetryAt),
    createdAt: a.createdAt.toISOString(),
  };
}

export function deliveryView(d: WebhookDelivery & { attempts: WebhookAttempt[] }): WebhookDeliveryResponse {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.eventName as EventName,
    url: d.url,
    status: d.status.toLowerCase() as Lowercase<WebhookDelivery['status']>,
    attemptCount: d.attemptCount,
    nextAttemptAt: d.status === 'DELIVERED' || d.status === 'FAILED' ? null : iso(d.nextAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    lastError: d.lastError,
    replayOfId: d.replayOfId,
    createdAt: d.createdAt.toISOString(),
    attempts: [...d.attempts].sort((a, b) => a.attemptNumber - b.attemptNumber).map(attemptView),
  };
}

/**
 * Prisma reads an `include` with a second SELECT. An attempt logged between the two would show a
 * delivery still "pending" next to its attempt; one REPEATABLE READ snapshot keeps them together.
 * (An interactive transaction: Prisma runs a one-query batch `$transaction([...])` without one.)
 */
function inOneSnapshot<T>(read: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(read, { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead });
}

export async function listDeliveries(tenant: Tenant, query: z.infer<typeof deliveryListQuery>) {
  const page = pageArgs(query);
  const rows = await inOneSnapshot((tx) =>
    tx.webhookDelivery.findMany({
      where: {
        tenantId: tenant.id,
        ...(query.event ? { eventName: query.event } : {}),
        ...(query.status ? { status: query.status.toUpperCase() as WebhookDelivery['status'] } : {}),
        ...page.where,
      },
      include: { attempts: true },
      orderBy: page.orderBy,
      take: page.take,
    }),
  );
  return toPage(rows, query, deliveryView);
}

export async function getDelivery(tenant: Tenant, id: string) {
  const delivery = await inOneSnapshot((tx) =>
    tx.webhookDelivery.findFirst({ where: { id, tenantId: tenant.id }, include: { attempts: true } }),
  );
  if (!delivery) throw notFound('Delivery');
  return deliveryView(delivery);
}

/**
 * Replay: a new delivery of the SAME event (same envelope id and x-webhook-id, so receivers that
 * dedupe treat it idempotently) to the tenant's current URL, with a fresh attempt schedule.
 */
export async function replayDelivery(tenant: Tenant, id: string) {
  const original = await db().webhookDelivery.findFirst({ where: { id, tenantId: tenant.id } });
  if (!original) throw notFound('Delivery');
  const fresh = await db().tenant.findUniqueOrThrow({ where: { id: tenant.id } });
  if (!fresh.webhookUrl) throw invalidState('No webhook URL is configured.');
  if (original.status === 'PENDING' || original.status === 'RETRYING') {
    throw new ApiError(
      'INVALID_STATE',
      'This delivery is still being attempted; replay it once it has been delivered or has failed.',
    );
  }
  const replay = await db().$transaction(async (tx) => {
    await tx.webhookDelivery.update({ where: { id: original.id }, data: { replayCount: { increment: 1 } } });
    return tx.webhookDelivery.create({
      data: {
        tenantId: tenant.id,
        eventId: original.eventId,
        eventName: original.eventName,
        url: fresh.webhookUrl!,
        status: 'PENDING',
        nextAttemptAt: new Date(),
        replayOfId: original.id,
      },
      include: { attempts: true },
    });
  });
  outboxWritten();
  return deliveryView(replay);
}
