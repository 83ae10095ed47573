import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import Redis from 'ioredis';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/errors';
import { requestContext } from '@/lib/http/context';
import { processState } from '@/lib/runtime/process-state';

/**
 * Per-credential request rate (per second). Memory store by default; with REDIS_URL every app
 * instance shares one budget per key. Every guarded response carries x-ratelimit-* headers.
 */
export const PROVIDER_REQUESTS_PER_SECOND = 100;
/** Participant-token endpoints (/me, /polls/public, /questions/public, ...): per participant. */
// 30: the hosted call UI itself sends a burst as a call opens (entry check, polls, Q&A, chat history, waiting list).
export const PARTICIPANT_REQUESTS_PER_SECOND = 30;
/** Endpoints with no credential (GET /rooms/{id}/info): per client address. */
export const PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND = 10;

// Once per process: every route and server action spends from the same per-key budget.
const store = processState('rateLimits', () => ({
  limiters: new Map<number, RateLimiterAbstract>(),
  redis: undefined as Redis | undefined,
}));

function limiterFor(points: number): RateLimiterAbstract {
  let limiter = store.limiters.get(points);
  if (!limiter) {
    const { REDIS_URL } = config();
    if (REDIS_URL) {
      store.redis ??= new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      // If Redis is unreachable, each process limits on its own rather than failing requests.
      limiter = new RateLimiterRedis({
        storeClient: store.redis,
        points,
        duration: 1,
        keyPrefix: `convene:rl:${points}`,
        insuranceLimiter: new RateLimiterMemory({ points, duration: 1 }),
      });
    } else {
      limiter = new RateLimiterMemory({ points, duration: 1 });
    }
    store.limiters.set(points, limiter);
  }
  return limiter;
}

function setHeaders(limit: number, res: RateLimiterRes) {
  const ctx = requestContext();
  if (!ctx) return;
  ctx.responseHeaders['x-ratelimit-limit'] = String(limit);
  ctx.responseHeaders['x-ratelimit-remaining'] = String(Math.max(0, res.remainingPoints));
  ctx.responseHeaders['x-ratelimit-reset'] = String(Math.ceil(res.msBeforeNext / 1000));
}

export async function consumeRateLimit(credentialKey: string, perSecond: number): Promise<void> {
  try {
    setHeaders(perSecond, await limiterFor(perSecond).consume(credentialKey));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err; // store failure: surfaces as a 500 we log
    setHeaders(perSecond, err);
    const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    const ctx = requestContext();
    if (ctx) ctx.responseHeaders['retry-after'] = String(retryAfter);
    const who = credentialKey.startsWith('participant:')
      ? 'this participant token'
      : credentialKey.startsWith('address:')
        ? 'this address'
        : 'this key';
    throw new ApiError(
      'RATE_LIMITED',
      `Too many requests: ${who} allows ${perSecond} per second. Retry after ${retryAfter} s.`,
    );
  }
}

export async function closeRateLimitStore(): Promise<void> {
  store.limiters.clear();
  await store.redis?.quit().catch(() => undefined);
  store.redis = undefined;
}
