import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Password guessing. Failed attempts are counted per account whatever address they come from (10 per
 * 15 minutes), so rotating X-Forwarded-For or source addresses buys nothing; and per client
 * address (100 per 15 minutes, across accounts) against spraying one password over many accounts.
 * The client address is the TCP peer, or the forwarded client when the peer is one of
 * TRUSTED_PROXIES (lib/net/client-address.ts). Every attempt takes a point before the password is
 * checked (so a burst cannot race the count); a successful one gives it back, so people who sign in
 * often (a team sharing an office address, a test suite) never lock themselves out.
 */
const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;
const SIGN_IN_ATTEMPTS_PER_ADDRESS = 100;
const SIGN_IN_WINDOW_SECONDS = 15 * 60;

const perAccount = new RateLimiterMemory({
  points: SIGN_IN_ATTEMPTS_PER_ACCOUNT,
  duration: SIGN_IN_WINDOW_SECONDS,
  keyPrefix: 'console-sign-in-account',
});
const perAddress = new RateLimiterMemory({
  points: SIGN_IN_ATTEMPTS_PER_ADDRESS,
  duration: SIGN_IN_WINDOW_SECONDS,
  keyPrefix: 'console-sign-in-address',
});

async function take(limiter: RateLimiterMemory, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    throw err;
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();

/** False when either budget is spent: the attempt is refused before the password is checked. */
export async function consumeSignInAttempt(email: string, address: string): Promise<boolean> {
  const account = await take(perAccount, accountKey(email));
  const client = await take(perAddress, address);
  return account && client;
}

/** The attempt signed in: it costs neither budget. */
export async function refundSignInAttempt(email: string, address: string): Promise<void> {
  await Promise.all([perAccount.reward(accountKey(email), 1), perAddress.reward(address, 1)]);
}
