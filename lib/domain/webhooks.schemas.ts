import { z } from 'zod';
import type { DeliveryStatus } from '@/lib/generated/prisma/enums';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { paginationQuery } from '@/lib/domain/pagination';
import { named, nullableTimestamp, page, timestamp } from '@/lib/domain/shared.schemas';

/** Webhook settings, secrets, test events and deliveries: request and response schemas. */
const eventName = z.enum(EVENT_NAMES);

// DeliveryStatus in lower case, as the API has always spelt delivery statuses.
type DeliveryStatusName = Lowercase<DeliveryStatus>;

export const webhookSettingsInput = z
  .object({
    webhookUrl: z.string().trim().max(2048).nullable(),
    /** A subset filter; null (or absent at creation) means every event. */
    webhookEvents: z.array(eventName).min(1).max(EVENT_NAMES.length).nullable(),
  })
  .partial();

export const secretRotationInput = z.object({
  /** How long the previous secret keeps signing alongside the new one (default 24 h, max 7 days). */
  overlapSeconds: z.number().int().min(0).max(604_800).default(86_400),
});

export const webhookTestInput = z.object({ event: eventName.default('webhook.test') });

export const deliveryListQuery = paginationQuery.extend({
  event: eventName.optional(),
  status: z
    .enum(['pending', 'delivered', 'failed', 'retrying'] as const satisfies readonly DeliveryStatusName[])
    .optional(),
});

export const tenantWebhookResponse = named(
  'TenantWebhook',
  'Webhook settings: never the secret, only whether one is configured.',
  z.object({
    url: z.string().nullable(),
    events: z.array(eventName).nullable().describe('The event filter; null = every event.'),
    secretConfigured: z.boolean(),
    previousSecretExpiresAt: nullableTimestamp.describe('While a rotated-out secret still signs deliveries.'),
  }),
);

export const webhookSecretRotationResponse = named(
  'WebhookSecretRotation',
  'The new webhook secret, shown this once.',
  z.object({ webhookSecret: z.string(), previousSecretExpiresAt: nullableTimestamp }),
);
export const webhookTestResponse = named(
  'WebhookTestResult',
  'The queued test event and its delivery.',
  z.object({ eventId: z.string(), deliveryId: z.string(), event: eventName, status: z.literal('pending') }),
);
const webhookAttemptResponse = named(
  'WebhookAttempt',
  'One HTTP attempt of a delivery.',
  z.object({
    attemptNumber: z.int(),
    requestUrl: z.string(),
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.string(),
    responseStatus: z.int().nullable(),
    responseBody: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: z.int(),
    willRetry: z.boolean(),
    nextRetryAt: nullableTimestamp,
    createdAt: timestamp,
  }),
);
export type WebhookAttemptResponse = z.output<typeof webhookAttemptResponse>;
export const webhookDeliveryResponse = named(
  'WebhookDelivery',
  'One event’s delivery to the tenant’s endpoint, with its attempts (oldest first).',
  z.object({
    id: z.string(),
    eventId: z.string(),
    event: eventName,
    url: z.string(),
    status: z.enum(['pending', 'retrying', 'delivered', 'failed'] as const satisfies readonly DeliveryStatusName[]),
    attemptCount: z.int(),
    nextAttemptAt: nullableTimestamp,
    deliveredAt: nullableTimestamp,
    lastError: z.string().nullable(),
    replayOfId: z.string().nullable(),
    createdAt: timestamp,
    attempts: z.array(webhookAttemptResponse),
  }),
);
export type WebhookDeliveryResponse = z.output<typeof webhookDeliveryResponse>;
export const webhookDeliveryPage = page('WebhookDeliveryPage', webhookDeliveryResponse, 'webhook deliveries');
