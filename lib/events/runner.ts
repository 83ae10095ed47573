import { db, sql } from '@/lib/db';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { metrics } from '@/lib/metrics';
import { attemptDelivery } from '@/lib/events/delivery';
import { requestInngestDelivery } from '@/lib/events/inngest';
import { processState } from '@/lib/runtime/process-state';

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
/** Attempts in flight per process, across tenants. */
const ATTEMPTS_IN_FLIGHT = 64;
const DISPATCHER_LOCK = 7_311_001; // advisory lock id: one dispatcher across all instances

interface LeasedDelivery {
  id: string;
  tenantId: string;
  attemptCount: number;
}

interface DeliveryRunner {
  stop(): Promise<void>;
  /** Dispatch now instead of at the next tick (after an emit, for low latency). */
  wake(): void;
}

// Once per process: emits in route handlers wake the runner that instrumentation started.
const runner = processState('deliveryRunner', () => ({ running: undefined as DeliveryRunner | undefined }));

export function currentRunner(): DeliveryRunner | undefined {
  return runner.running;
}

/**
 * Leases due deliveries and returns them; empty if another instance holds the dispatcher lock.
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
  const c = config();
  // Most ticks find nothing due (ten a second, on every instance, also when idle): one cheap
  // statement on the raw pool first, and the leasing transaction (BEGIN, lock, lease, COMMIT
  // through Prisma) only when there is something to lease. Measured idle: 54-70 ms of server CPU
  // per second before, nearly all of it this loop.
  const { rowCount } = await sql().query({
    name: 'webhook_due_probe',
    text: `SELECT 1 FROM "WebhookDelivery" WHERE status IN ('PENDING', 'RETRYING') AND "nextAttemptAt" <= now()
           AND ("leasedUntil" IS NULL OR "leasedUntil" <= now()) LIMIT 1`,
  });
  if (!rowCount) return [];
  return db().$transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<
      { locked: boolean }[]
    >`SELECT pg_try_advisory_xact_lock(${DISPATCHER_LOCK}) AS locked`;
    if (!locked) return [];
    // After the lock, in a new snapshot: the in-flight counts include every lease committed before.
    return tx.$queryRaw<LeasedDelivery[]>`
      WITH RECURSIVE tenants AS (
        (SELECT "tenantId" FROM "WebhookDelivery" WHERE status IN ('PENDING', 'RETRYING') ORDER BY "tenantId" LIMIT 1)
        UNION ALL
        SELECT (SELECT d."tenantId" FROM "WebhookDelivery" d
                WHERE d.status IN ('PENDING', 'RETRYING') AND d."tenantId" > t."tenantId"
                ORDER BY d."tenantId" LIMIT 1)
        FROM tenants t WHERE t."tenantId" IS NOT NULL
      ), inflight AS (
        SELECT "tenantId", count(*)::int AS n FROM "WebhookDelivery"
        WHERE status IN ('PENDING', 'RETRYING') AND "leasedUntil" IS NOT NULL AND "leasedUntil" > now()
        GROUP BY "tenantId"
      ), due AS (
        SELECT next.id, next."nextAttemptAt"
        FROM tenants t
        LEFT JOIN inflight ON inflight."tenantId" = t."tenantId"
        CROSS JOIN LATERAL (
          SELECT d.id, d."nextAttemptAt" FROM "WebhookDelivery" d
          WHERE d."tenantId" = t."tenantId" AND d.status IN ('PENDING', 'RETRYING') AND d."nextAttemptAt" <= now()
            AND (d."leasedUntil" IS NULL OR d."leasedUntil" <= now())
          ORDER BY d."nextAttemptAt"
          LIMIT GREATEST(${c.WEBHOOK_TENANT_CONCURRENCY}::int - COALESCE(inflight.n, 0), 0)
        ) next
        WHERE t."tenantId" IS NOT NULL
        ORDER BY next."nextAttemptAt"
        LIMIT ${limit}::int
      )
      UPDATE "WebhookDelivery" AS w
      SET "leasedUntil" = now() + make_interval(secs => ${leaseMs / 1000})
      FROM due
      -- Checked again on the row itself, so a row that changed since the snapshot is never leased twice.
      WHERE w.id = due.id AND w.status IN ('PENDING', 'RETRYING') AND (w."leasedUntil" IS NULL OR w."leasedUntil" <= now())
      RETURNING w.id, w."tenantId", w."attemptCount"`;
  });
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
        const [{ depth }] = await db().$queryRaw<
          { depth: number }[]
        >`SELECT count(*)::int AS depth FROM "WebhookDelivery" WHERE status IN ('PENDING', 'RETRYING')`;
        metrics().queueDepth.set(depth);
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
    },
  };
  runner.running = started;
  return started;
}

/**
 * The PostgreSQL runner: the delivery rows are the queue. Each tick leases as many due deliveries
 * as this process has free attempt slots and attempts them here; every finished attempt frees its
 * slot and wakes the loop. Graceful stop lets in-flight attempts finish (each is bounded by
 * WEBHOOK_TIMEOUT_MS).
 */
export async function startDeliveryRunner(): Promise<DeliveryRunner> {
  if (runner.running) return runner.running;
  const inFlight = new Set<Promise<void>>();
  return startLoop(
    async () => {
      const free = ATTEMPTS_IN_FLIGHT - inFlight.size;
      if (free <= 0) return;
      for (const d of await leaseDueDeliveries(free)) {
        const attempt: Promise<void> = attemptDelivery(d.id, d.attemptCount + 1)
          .then(
            () => undefined,
            (err: unknown) =>
              log.error({ err, deliveryId: d.id }, 'webhook attempt failed; its lease brings the delivery back'),
          )
          .finally(() => {
            inFlight.delete(attempt);
            runner.running?.wake(); // a slot is free: dispatch now, not at the next tick
          });
        inFlight.add(attempt);
      }
    },
    async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  );
}
