import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** Password guessing: 10 sign-in attempts per email and client address per 15 minutes. */
const limiter = new RateLimiterMemory({ points: 10, duration: 15 * 60, keyPrefix: 'console-sign-in' });

export async function consumeSignInAttempt(key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    throw err;
  }
}
