import PgBoss from 'pg-boss';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { processState } from '@/lib/runtime/process-state';

/** One pg-boss instance per process, shared by the scheduled jobs and the routes that queue work. */
const queue = processState('queue', () => ({
  starting: undefined as Promise<PgBoss> | undefined,
  boss: undefined as PgBoss | undefined,
}));

/**
 * Instances starting at the same moment race on pg-boss's schema and queue creation and can
 * deadlock in PostgreSQL; the loser retries after a short random pause instead of crashing.
 */
async function withRetry<T>(what: string, fn: () => Promise<T>, attempts = 6): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts) throw err;
      log.warn({ err: (err as Error).message, attempt: i }, `${what} failed; retrying`);
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 400 * i));
    }
  }
}

function startQueue(): Promise<PgBoss> {
  queue.starting ??= withRetry('queue start', async () => {
    const b = new PgBoss({
      connectionString: config().DATABASE_URL,
      schema: 'pgboss',
      max: 4,
      application_name: 'convene-queue',
    });
    b.on('error', (err) => log.error({ err }, 'queue error'));
    await b.start();
    queue.boss = b;
    return b;
  });
  return queue.starting;
}

export async function ensureQueue(name: string, options: Omit<PgBoss.Queue, 'name'> = {}): Promise<PgBoss> {
  const b = await startQueue();
  await withRetry(`create queue ${name}`, () => b.createQueue(name, { name, ...options }));
  return b;
}

/** Graceful: waits for active jobs up to timeoutMs, then releases the connection pool. */
export async function stopQueue(timeoutMs: number): Promise<void> {
  const b = queue.boss;
  queue.boss = undefined;
  queue.starting = undefined;
  await b?.stop({ graceful: true, timeout: timeoutMs, wait: true });
}
