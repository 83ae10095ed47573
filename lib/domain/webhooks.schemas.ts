import { z } from 'zod';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { paginationQuery } from '@/lib/domain/pagination';

const eventName = z.enum(EVENT_NAMES);

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
  status: z.enum(['pending', 'delivered', 'failed', 'retrying']).optional(),
});
