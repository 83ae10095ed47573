import { config } from '@/lib/config';
import { flushUsage } from '@/lib/domain/usage';
import { closeCredentialCache } from '@/lib/runtime/credential-cache';
import { closeRateLimitStore } from '@/lib/rate-limiter';
import { log } from '@/lib/log';
import { startDeliveryRunner, startInngestDispatcher } from '@/lib/events/runner';
import { inngestConfigured } from '@/lib/events/inngest';
import { startLifecycleJobs, startTranscriptJobs } from '@/lib/runtime/jobs';
import { stopQueue } from '@/lib/runtime/queue';
import { installPeerAddressHook } from '@/lib/net/client-address';

/**
 * Starts what runs beside the HTTP server in every app process: the webhook delivery runner and
 * the queue workers (scheduled room lifecycle and transcript jobs) unless QUEUE_WORKERS=false.
 * Called once, from instrumentation.ts under Next.js and from the test app server.
 */
type Stopper = () => Promise<void>;
const stoppers: Stopper[] = [];
let booted = false;

export async function boot(): Promise<void> {
  if (booted) return;
  booted = true;
  const c = config();
  installPeerAddressHook();
  if (c.QUEUE_WORKERS) {
    const runner = inngestConfigured() ? await startInngestDispatcher() : await startDeliveryRunner();
    stoppers.push(() => runner.stop());
    // With Inngest, the lifecycle runs as an Inngest cron (lib/events/inngest.ts) instead.
    if (!inngestConfigured()) await startLifecycleJobs();
    await startTranscriptJobs();
    // Graceful: running jobs get as long as a webhook attempt, then the queue's pool closes.
    stoppers.push(() => stopQueue(c.WEBHOOK_TIMEOUT_MS + 2_000));
  }
  stoppers.push(flushUsage, closeCredentialCache, closeRateLimitStore);
  log.info({ queueWorkers: c.QUEUE_WORKERS }, 'convene booted');
}

/**
 * Parses the environment once at startup; a bad value prints the message (naming each variable)
 * and exits with status 1 instead of leaving a process that answers 500 to every request.
 */
export function assertValidEnvironment(exit: (code: number) => never = process.exit): void {
  try {
    config();
  } catch (err) {
    console.error(`convene: refusing to start. ${(err as Error).message}`);
    exit(1);
  }
}

/** Graceful shutdown: stop taking work, let in-flight work finish (bounded), release leases. */
export async function shutdown(timeoutMs = 10_000): Promise<void> {
  const all = Promise.allSettled(
    stoppers
      .splice(0)
      .reverse()
      .map((stop) => stop()),
  );
  await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}
