import { randomBase62 } from '@/lib/crypto';
import { newRowId } from '@/lib/ids';
import type { Tx } from '@/lib/db';
import type { EventData, EventName } from '@/lib/events/catalog';
import { processState } from '@/lib/runtime/process-state';

// Who wants to know that events were committed: the delivery runner of this process, if one runs.
const listeners = processState('outboxListeners', () => ({ written: undefined as (() => void) | undefined }));

/**
 * After the commit of a transaction that emitted events: deliver them now rather than at the
 * runner's next tick. A signal, so the domain that writes events never imports the runner.
 */
export function outboxWritten(): void {
  listeners.written?.();
}

/** The delivery runner listens for outboxWritten (one listener per process; undefined stops). */
export function onOutboxWritten(listener: (() => void) | undefined): void {
  listeners.written = listener;
}

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
 * The write itself is one database function, convene_emit_event (prisma/sql/), which the
 * one-statement join also calls to write `participant.waiting`: one definition of what an event
 * and its delivery hold. Event.roomId is set by the database from data.roomId (trigger "Event_roomId").
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
}): Promise<Emitted> {
  const eventId = newEventId();
  const deliveryId = newRowId();
  const [{ delivered }] = await tx.$queryRaw<{ delivered: boolean }[]>`
    SELECT convene_emit_event(${eventId}, ${tenantId}, ${name}, ${JSON.stringify(data)}::jsonb,
      ${occurredAt.toISOString()}::timestamptz AT TIME ZONE 'UTC', ${deliveryId}, ${force}) AS delivered`;
  return { eventId, deliveryId: delivered ? deliveryId : null };
}

type Emitted = { eventId: string; deliveryId: string | null };
