import { RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError, rateLimited } from '@/lib/errors';
import { requestContext } from '@/lib/http/context';
import { limiterFor } from '@/lib/rate-limiter';
import { clientAddress } from '@/lib/net/client-address';

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
    const who = credentialKey.startsWith('participant:')
      ? 'this participant token'
      : credentialKey.startsWith('address:')
        ? 'this address'
        : 'this key';
    throw rateLimited({
      retryAfterMs: err.msBeforeNext,
      message: `Too many requests: ${who} allows ${perSecond} per second.`,
    });
  }
}

/**
 * Failed credentials per client address: an API key, provider key, participant token or admission
 * secret that was presented and refused. Past the budget the address is refused (429) before any
 * credential is checked, so guessing costs neither a database read nor an answer.
 */
export const FAILED_CREDENTIALS_PER_ADDRESS = 30;
export const FAILED_CREDENTIALS_WINDOW_SECONDS = 60;

/**
 * Runs check (the credential's verification) under the address's failure budget. Only a credential
 * that was presented counts (a missing one is a client bug, not a guess), and only the error code
 * that refuses it: UNAUTHENTICATED, or NOT_FOUND where a wrong secret must not confirm an id exists.
 */
export async function limitFailedCredentials<T>(
  headers: Headers,
  presented: boolean,
  check: () => Promise<T>,
  refusedAs: ApiError['code'] = 'UNAUTHENTICATED',
): Promise<T> {
  if (!presented) return check();
  const key = `failed:${clientAddress(headers)}`;
  const limiter = limiterFor(FAILED_CREDENTIALS_PER_ADDRESS, FAILED_CREDENTIALS_WINDOW_SECONDS);
  const spent = await limiter.get(key);
  if (spent && spent.consumedPoints >= FAILED_CREDENTIALS_PER_ADDRESS) throw tooManyFailures(spent);
  try {
    return await check();
  } catch (err) {
    if (err instanceof ApiError && err.code === refusedAs) {
      const res = await limiter.consume(key).catch((over: unknown) => {
        if (over instanceof RateLimiterRes) return over;
        throw over; // store failure
      });
      if (res.consumedPoints > FAILED_CREDENTIALS_PER_ADDRESS) throw tooManyFailures(res);
    }
    throw err;
  }
}

function tooManyFailures(res: RateLimiterRes) {
  return rateLimited({
    retryAfterMs: res.msBeforeNext,
    message: `Too many failed credentials from this address: at most ${FAILED_CREDENTIALS_PER_ADDRESS} per ${FAILED_CREDENTIALS_WINDOW_SECONDS} s.`,
  });
}
