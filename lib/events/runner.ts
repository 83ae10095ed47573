import { deliverySql } from '@/lib/db';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { metrics } from '@/lib/metrics';
import { recordAttempts, sendAttempt, type AttemptRecord, type DueDelivery } from '@/lib/events/delivery';
import { requestInngestDelivery } from '@/lib/events/inngest';
import { processState } from '@/lib/runtime/process-state';
import { onOutboxWritten } from '@/lib/events/outbox';

/**
 * Webhook delivery runners, in-process with the app.
 *
 * Deliveries are rows written in the emitting transaction (the outbox), and the rows are the queue:
 * a dispatcher (one instance at a time, by advisory lock) leases due deliveries — at most
 * WEBHOOK_TENANT_CONCURRENCY in flight per tenant, so one slow receiver cannot starve the others —
 * and each leased delivery gets one attemptDelivery(). A process that dies mid-attempt leaves a
 * lease that expires, and the attempt is made again: nothing is lost (receivers dedupe on
 * x-webhook-id). Retries are rows with a later nextAttemptAt, so they survive restarts too.
 *
 * No pg-boss job per attempt: that hop cost three more writes per attempt (insert, fetch,
 * complete) and gave nothing the lease does not. pg-boss runs the scheduled jobs (lib/runtime/jobs.ts).
 */
const DISPATCH_INTERVAL_MS = 100;
const DISPATCH_BATCH = 200;
/**
 * Attempts in flight per process, across tenants (an attempt is an open request and a few KB):
 * sixteen tenants' worth of WEBHOOK_TENANT_CONCURRENCY, so receivers slow enough to hold all their
 * slots leave the rest to everyone else.
 */
const ATTEMPTS_IN_FLIGHT = 1024;
/** Finished attempts written per statement. */
const RECORD_BATCH = 200;

type LeasedDelivery = DueDelivery & { tenantId: string };

interface DeliveryRunner {
  stop(): Promise<void>;
  /** Dispatch now instead of at the next tick (after an emit, for low latency). */
  wake(): void;
}

// Once per process: emits in route handlers wake the runner that instrumentation started
// (through outboxWritten).
const runner = processState('deliveryRunner', () => ({ running: undefined as DeliveryRunner | undefined }));

/**
 * Leases due deliveries and returns them, with everything their attempts need; empty if another
 * instance holds the dispatcher lock. One call (prisma/sql/convene_lease_deliveries.sql): a look for anything due, the dispatcher's advisory lock, the lease.
 *
 * Per tenant: the oldest due deliveries, no more than WEBHOOK_TENANT_CONCURRENCY minus those in
 * flight. Tenants are walked one by one (a loose index scan over open deliveries) and each gives
 * at most its free slots, so the cost follows tenants and leases, not the backlog: one tenant's
 * 100,000 queued events neither slow the query down nor push another tenant's event back.
 */
async function leaseDueDeliveries(
  limit = DISPATCH_BATCH,
  leaseMs = 2 * config().WEBHOOK_TIMEOUT_MS + 5_000,
): Promise<LeasedDelivery[]> {
  const { rows } = await deliverySql().query<LeasedDelivery>({
    name: 'webhook_lease',
    text: 'SELECT * FROM convene_lease_deliveries($1, $2, $3)',
    values: [limit, leaseMs / 1000, config().WEBHOOK_TENANT_CONCURRENCY],
  });
  return rows;
}

/** Inngest mode: the dispatcher hands each leased delivery to one Inngest run, which owns all its retries. */
export async function startInngestDispatcher(): Promise<DeliveryRunner> {
  const c = config();
  const scheduleMs =
    c.WEBHOOK_BACKOFF_BASE_MS * (2 ** c.WEBHOOK_MAX_ATTEMPTS - 1) +
    c.WEBHOOK_MAX_ATTEMPTS * c.WEBHOOK_TIMEOUT_MS +
    60_000;
  return startLoop(async () => {
    for (const d of await leaseDueDeliveries(DISPATCH_BATCH, scheduleMs)) await requestInngestDelivery(d);
  });
}

/**
 * The dispatch loop: a tick every DISPATCH_INTERVAL_MS, and one right away on wake() (after an
 * emit, or when an attempt frees a slot). Ticks never overlap; a wake during a tick runs one more
 * straight after it.
 */
function startLoop(dispatch: () => Promise<void>, onStop: () => Promise<void> = async () => {}): DeliveryRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  let active = false;
  let again = false;
  let depthMeasuredAt = 0;
  const tick = async () => {
    try {
      await dispatch();
      // Ticks run after every attempt under load; the depth gauge needs a count once a second.
      if (Date.now() - depthMeasuredAt >= 1000) {
        depthMeasuredAt = Date.now();
        const { rows } = await deliverySql().query<{ depth: number }>(
          `SELECT count(*)::int AS depth FROM "WebhookDelivery" WHERE status IN ('PENDING', 'RETRYING')`,
        );
        metrics().queueDepth.set(rows[0].depth);
      }
    } catch (err) {
      if (!stopped) log.error({ err }, 'webhook dispatch failed');
    }
  };
  const run = () => {
    if (stopped) return;
    if (active) {
      again = true;
      return;
    }
    clearTimeout(timer);
    active = true;
    ticking = tick().finally(() => {
      active = false;
      if (stopped) return;
      if (again) {
        again = false;
        run();
      } else {
        timer = setTimeout(run, DISPATCH_INTERVAL_MS);
      }
    });
  };
  run();
  const started: DeliveryRunner = {
    wake: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await onStop();
      runner.running = undefined;
      onOutboxWritten(undefined);
    },
  };
  runner.running = started;
  onOutboxWritten(run);
  return started;
}

/**
 * The PostgreSQL runner: the delivery rows are the queue. Each tick leases as many due deliveries
 * as this process has free attempt slots, with everything their attempts need, and sends them
 * here. Finished attempts are written together: while one batch is being written the next ones
 * gather, so under load a statement records many attempts, and when idle each is written at once.
 * A delivery keeps its lease (and its slot, and its tenant's) until its attempt is written; each
 * written batch wakes the loop. Graceful stop lets in-flight attempts finish (each is bounded by
 * WEBHOOK_TIMEOUT_MS) and writes them. A process that dies with attempts unwritten leaves their
 * leases to expire: those attempts are made again (at-least-once, as before).
 */
export async function startDeliveryRunner(): Promise<DeliveryRunner> {
  if (runner.running) return runner.running;
  const inFlight = new Set<Promise<void>>();
  const unwritten: AttemptRecord[] = [];
  let writing: Promise<void> | undefined;
  let busy = 0; // attempts sent or waiting to be written
  const write = async () => {
    while (unwritten.length > 0) {
      // One record per delivery in a statement (a delivery is leased to one attempt at a time).
      const batch: AttemptRecord[] = [];
      const ids = new Set<string>();
      for (let i = 0; i < unwritten.length && batch.length < RECORD_BATCH; ) {
        if (ids.has(unwritten[i].deliveryId)) i++;
        else {
          ids.add(unwritten[i].deliveryId);
          batch.push(...unwritten.splice(i, 1));
        }
      }
      try {
        await recordAttempts(batch);
      } catch (err) {
        log.error(
          { err, attempts: batch.length },
          'webhook attempts not recorded; their leases bring the deliveries back',
        );
      }
      busy -= batch.length;
      runner.running?.wake(); // slots are free: dispatch now, not at the next tick
    }
    writing = undefined; // in the same turn as the last check: a record finished later starts a new write
  };
  const finished = (record: AttemptRecord) => {
    unwritten.push(record);
    writing ??= write();
  };
  return startLoop(
    async () => {
      const free = ATTEMPTS_IN_FLIGHT - busy;
      if (free <= 0) return;
      for (const d of await leaseDueDeliveries(free)) {
        busy++;
        const attempt: Promise<void> = sendAttempt(d, d.attemptCount + 1)
          .then(finished, (err: unknown) => {
            busy--;
            log.error({ err, deliveryId: d.id }, 'webhook attempt failed; its lease brings the delivery back');
          })
          .finally(() => inFlight.delete(attempt));
        inFlight.add(attempt);
      }
    },
    async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      while (writing) await writing;
    },
  );
}
