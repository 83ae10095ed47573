import { db } from '@/lib/db';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { metrics } from '@/lib/metrics';
import { attemptDelivery } from '@/lib/events/delivery';
import { requestInngestDelivery } from '@/lib/events/inngest';
import { ensureQueue, stopQueue } from '@/lib/runtime/queue';

/**
 * The PostgreSQL delivery runner (pg-boss), in-process with the app.
 *
 * Deliveries are rows; the queue only carries "attempt n of delivery d". A dispatcher loop (one
 * instance at a time, by advisory lock) leases due deliveries — at most WEBHOOK_TENANT_CONCURRENCY
 * in flight per tenant, so one slow receiver cannot starve the others — and enqueues one job per
 * lease. Workers run attemptDelivery(). A process that dies mid-attempt leaves a lease that
 * expires, and the attempt is dispatched again: nothing is lost (receivers dedupe on x-webhook-id).
 */
export const DELIVERY_QUEUE = 'webhook-delivery';
const DISPATCH_INTERVAL_MS = 100;
const DISPATCH_BATCH = 200;
const WORKERS = 16;
const JOBS_PER_FETCH = 4;
const DISPATCHER_LOCK = 7_311_001; // advisory lock id: one dispatcher across all instances

interface AttemptJob {
  deliveryId: string;
  attempt: number;
}

export interface DeliveryRunner {
  stop(): Promise<void>;
  /** Dispatch now instead of at the next tick (after an emit, for low latency). */
  wake(): void;
}

let running: DeliveryRunner | undefined;

export function currentRunner(): DeliveryRunner | undefined {
  return running;
}

/** Leases due deliveries and returns them; empty if another instance holds the dispatcher lock. */
export async function leaseDueDeliveries(limit = DISPATCH_BATCH, leaseMs = 2 * config().WEBHOOK_TIMEOUT_MS + 5_000): Promise<{ id: string; tenantId: string; attemptCount: number }[]> {
  const c = config();
  return db().$transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${DISPATCHER_LOCK}) AS locked`;
    if (!locked) return [];
    return tx.$queryRaw<{ id: string; tenantId: string; attemptCount: number }[]>`
      WITH inflight AS (
        SELECT "tenantId", count(*)::int AS n FROM "WebhookDelivery"
        WHERE status IN ('PENDING', 'RETRYING') AND "leasedUntil" > now()
        GROUP BY "tenantId"
      ), due AS (
        SELECT id, "tenantId", row_number() OVER (PARTITION BY "tenantId" ORDER BY "nextAttemptAt", id) AS rn
        FROM "WebhookDelivery"
        WHERE status IN ('PENDING', 'RETRYING') AND "nextAttemptAt" <= now()
          AND ("leasedUntil" IS NULL OR "leasedUntil" <= now())
        ORDER BY "nextAttemptAt"
        LIMIT ${limit * 4}
      )
      UPDATE "WebhookDelivery" AS w
      SET "leasedUntil" = now() + make_interval(secs => ${leaseMs / 1000})
      FROM due LEFT JOIN inflight ON inflight."tenantId" = due."tenantId"
      WHERE w.id = due.id AND due.rn + COALESCE(inflight.n, 0) <= ${c.WEBHOOK_TENANT_CONCURRENCY}
      RETURNING w.id, w."tenantId", w."attemptCount"`;
  });
}

/** Inngest mode: the dispatcher hands each leased delivery to one Inngest run, which owns all its retries. */
export async function startInngestDispatcher(): Promise<DeliveryRunner> {
  const c = config();
  const scheduleMs = c.WEBHOOK_BACKOFF_BASE_MS * (2 ** c.WEBHOOK_MAX_ATTEMPTS - 1) + c.WEBHOOK_MAX_ATTEMPTS * c.WEBHOOK_TIMEOUT_MS + 60_000;
  return startLoop(async () => {
    for (const d of await leaseDueDeliveries(DISPATCH_BATCH, scheduleMs)) await requestInngestDelivery(d);
  });
}

function startLoop(dispatch: () => Promise<void>, onStop: () => Promise<void> = async () => {}): DeliveryRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  let pending = false;
  let depthMeasuredAt = 0;
  const tick = async () => {
    try {
      await dispatch();
      // Ticks run after every attempt under load; the depth gauge needs a count once a second.
      if (Date.now() - depthMeasuredAt >= 1000) {
        depthMeasuredAt = Date.now();
        const [{ depth }] = await db().$queryRaw<{ depth: number }[]>`SELECT count(*)::int AS depth FROM "WebhookDelivery" WHERE status IN ('PENDING', 'RETRYING')`;
        metrics().queueDepth.set(depth);
      }
    } catch (err) {
      if (!stopped) log.error({ err }, 'webhook dispatch failed');
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick().finally(() => schedule(DISPATCH_INTERVAL_MS));
    }, delay);
  };
  schedule(0);
  running = {
    wake() {
      if (stopped || pending) return;
      pending = true;
      void ticking.then(() => {
        pending = false;
        return tick();
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await onStop();
      running = undefined;
    },
  };
  return running;
}

export async function startDeliveryRunner(): Promise<DeliveryRunner> {
  if (running) return running;
  const c = config();
  const boss = await ensureQueue(DELIVERY_QUEUE);

  const workerIds: string[] = [];
  for (let i = 0; i < WORKERS; i++) {
    workerIds.push(
      // A few jobs per fetch (one query fetches them, one completes them), attempted concurrently;
      // each attempt records its own outcome, so a slow receiver delays only the batch's bookkeeping.
      await boss.work<AttemptJob>(DELIVERY_QUEUE, { batchSize: JOBS_PER_FETCH, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        // allSettled: the handler (which graceful shutdown waits for) ends only when every attempt has.
        const results = await Promise.allSettled(
          jobs.map(async (job) => {
            await attemptDelivery(job.data.deliveryId, job.data.attempt);
            running?.wake(); // a slot of this tenant is free again: dispatch now, not at the next tick
          }),
        );
        const failed = results.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason; // logged by pg-boss; the lease brings the delivery back
      }),
    );
  }

  return startLoop(
    async () => {
      const leased = await leaseDueDeliveries();
      if (leased.length === 0) return;
      await boss.insert(leased.map((d) => ({ name: DELIVERY_QUEUE, data: { deliveryId: d.id, attempt: d.attemptCount + 1 }, retryLimit: 0, expireInSeconds: 60 })));
      workerIds.forEach((id) => boss.notifyWorker(id));
    },
    // Graceful: in-flight attempts finish (bounded by the attempt timeout), then leases release.
    () => stopQueue(c.WEBHOOK_TIMEOUT_MS + 2_000),
  );
}
