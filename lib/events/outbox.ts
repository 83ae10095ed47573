import { randomBase62 } from '@/lib/crypto';
import type { Tx } from '@/lib/db';
import type { Event, WebhookDelivery } from '@/lib/generated/prisma/client';
import type { EventData, EventName } from '@/lib/events/catalog';

export function newEventId(): string {
  return `evt_${randomBase62(24)}`;
}

/**
 * The transactional outbox: call inside the transaction that makes the change the event
 * reports. It writes the event and one delivery per tenant endpoint that subscribes to it;
 * the delivery runner picks pending deliveries up after commit, so nothing is lost if the
 * process dies in between.
 *
 * `data` is typed by the event's schema in the catalogue (EVENT_DATA), which the API reference
 * documents: checked at compile time only, never at run time.
 *
 * One twin in SQL: the one-statement join (`convene_join`, migration
 * 20261124220000_waiting_room_join_one_statement) writes `participant.waiting` and its delivery
 * itself, with the same filter, so a park costs no second round trip. A change to what an event or
 * a delivery row holds is a change to both (test/rooms/rooms.test.ts holds them alike).
 */
export function emitEvent<N extends EventName>(event: {
  tx: Tx;
  tenantId: string;
  name: N;
  data: EventData<N>;
  occurredAt?: Date;
}): Promise<Emitted>;
/**
 * A synthetic event (`force: true`: POST /api/v1/webhooks/test, test and benchmark tooling): it
 * bypasses the subscription filter and its data is not the named event's (the test endpoint sends
 * TEST_EVENT_DATA under any name).
 */
export function emitEvent(event: {
  tx: Tx;
  tenantId: string;
  name: EventName;
  data: Record<string, unknown>;
  occurredAt?: Date;
  force: true;
}): Promise<Emitted>;
export async function emitEvent({
  tx,
  tenantId,
  name,
  data,
  occurredAt = new Date(),
  force = false,
}: {
  tx: Tx;
  tenantId: string;
  name: EventName;
  data: object;
  occurredAt?: Date;
  force?: boolean;
}) {
  const event = await tx.event.create({ data: { id: newEventId(), tenantId, name, data, occurredAt } });
  const tenant = await tx.tenant.findUniqueOrThrow({
    where: { id: tenantId },
    select: { webhookUrl: true, webhookEvents: true },
  });
  const filter = tenant.webhookEvents as string[] | null;
  const subscribed = force || !filter || filter.includes(name);
  const delivery =
    tenant.webhookUrl && subscribed
      ? await tx.webhookDelivery.create({
          data: {
            tenantId,
            eventId: event.id,
            eventName: name,
            url: tenant.webhookUrl,
            status: 'PENDING',
            nextAttemptAt: occurredAt,
          },
        })
      : null;
  return { event, delivery };
}

type Emitted = { event: Event; delivery: WebhookDelivery | null };
