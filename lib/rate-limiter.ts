import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import Redis from 'ioredis';
import { config } from '@/lib/config';
import { processState } from '@/lib/runtime/process-state';

/**
 * Atomic counters per key over a fixed window: request rates (lib/http/rate-limit.ts), failed
 * credentials per address, chat messages per sender. In memory by default; with REDIS_URL every
 * app instance shares one budget per key. Exact under concurrency either way: the memory store
 * counts synchronously in this process, Redis counts atomically across them.
 */
const store = processState('rateLimits', () => ({
  limiters: new Map<string, RateLimiterAbstract>(),
  redis: undefined as Redis | undefined,
}));

export function limiterFor(points: number, durationSeconds = 1): RateLimiterAbstract {
  const id = `${points}/${durationSeconds}`;
  let limiter = store.limiters.get(id);
  if (!limiter) {
    const { REDIS_URL } = config();
    const memory = () => new RateLimiterMemory({ points, duration: durationSeconds });
    if (REDIS_URL) {
      store.redis ??= new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      // If Redis is unreachable, each process limits on its own rather than failing requests.
      limiter = new RateLimiterRedis({
        storeClient: store.redis,
        points,
        duration: durationSeconds,
        keyPrefix: durationSeconds === 1 ? `convene:rl:${points}` : `convene:rl:${id}`,
        insuranceLimiter: memory(),
      });
    } else {
      limiter = memory();
    }
    store.limiters.set(id, limiter);
  }
  return limiter;
}

export async function closeRateLimitStore(): Promise<void> {
  store.limiters.clear();
  await store.redis?.quit().catch(() => undefined);
  store.redis = undefined;
}
