import { randomBase62 } from '@/lib/crypto';
import type { Tx } from '@/lib/db';
import type { EventName } from '@/lib/events/catalog';

export function newEventId(): string {
  return `evt_${randomBase62(24)}`;
}

/**
 * The transactional outbox: call inside the transaction that makes the change the event
 * reports. It writes the event and one delivery per tenant endpoint that subscribes to it;
 * the delivery runner picks pending deliveries up after commit, so nothing is lost if the
 * process dies in between. `force` bypasses the subscription filter (webhook.test only).
 */
export async function emitEvent(
  tx: Tx,
  tenantId: string,
  name: EventName,
  data: Record<string, unknown>,
  opts: { occurredAt?: Date; force?: boolean } = {},
) {
  const occurredAt = opts.occurredAt ?? new Date();
  const event = await tx.event.create({ data: { id: newEventId(), tenantId, name, data: data as object, occurredAt } });
  const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { webhookUrl: true, webhookEvents: true } });
  const filter = tenant.webhookEvents as string[] | null;
  const subscribed = opts.force || !filter || filter.includes(name);
  const delivery =
    tenant.webhookUrl && subscribed
      ? await tx.webhookDelivery.create({
          data: { tenantId, eventId: event.id, eventName: name, url: tenant.webhookUrl, status: 'PENDING', nextAttemptAt: occurredAt },
        })
      : null;
  return { event, delivery };
}
