import { Inngest } from 'inngest';
import { config } from '@/lib/config';
import { attemptDelivery, backoffMs } from '@/lib/events/delivery';

/**
 * The Inngest runner, for production scale-out when INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY are
 * set: one function run per delivery, an explicit loop of attempts with exact step.sleep gaps,
 * concurrency keyed by tenant. It drives the same attemptDelivery() as the in-process dispatcher
 * (lib/events/runner.ts).
 */
export const DELIVERY_EVENT = 'convene/webhook.delivery.requested';

export function inngestConfigured(): boolean {
  const c = config();
  return !!c.INNGEST_EVENT_KEY && !!c.INNGEST_SIGNING_KEY;
}

export const inngest = new Inngest({ id: 'convene' });

export const deliverWebhook = inngest.createFunction(
  {
    id: 'deliver-webhook',
    retries: 0, // our own schedule: exact base·2ⁿ gaps, attempt count in the database
    concurrency: [{ key: 'event.data.tenantId', limit: 64 }], // as WEBHOOK_TENANT_CONCURRENCY's default
    triggers: [{ event: DELIVERY_EVENT }],
  },
  async ({ event, step }) => {
    const { deliveryId, firstAttempt } = event.data as { deliveryId: string; tenantId: string; firstAttempt: number };
    const max = config().WEBHOOK_MAX_ATTEMPTS;
    for (let attempt = firstAttempt; attempt <= max; attempt++) {
      const outcome = await step.run(`attempt-${attempt}`, () => attemptDelivery(deliveryId, attempt));
      if (outcome !== 'retrying') return { deliveryId, outcome, attempts: attempt };
      await step.sleep(`backoff-${attempt}`, backoffMs(attempt));
    }
    return { deliveryId, outcome: 'failed', attempts: max };
  },
);

/** Starts a delivery run. A replay sends a NEW Inngest event id: Inngest dedupes ids for 24 h. */
export async function requestInngestDelivery(delivery: { id: string; tenantId: string; attemptCount: number }) {
  await inngest.send({
    id: `${delivery.id}:${delivery.attemptCount + 1}:${Date.now()}`,
    name: DELIVERY_EVENT,
    data: { deliveryId: delivery.id, tenantId: delivery.tenantId, firstAttempt: delivery.attemptCount + 1 },
  });
}
