/** Polls `fn` every 50 ms until it gives a value (not undefined), or fails naming what it waited for. */
export async function until<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls a condition (async where a page or a server answers it) until it holds (20 s by default), or fails naming it. */
export const holds = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) =>
  until(async () => (await check()) || undefined, what, timeoutMs);

/**
 * Waits for a cleanup at most `timeoutMs`. @livekit/rtc-node's `disconnect()` can hang under load
 * after its checks passed (one in a few full runs); a hung cleanup must not fail the suite, and it
 * is said rather than hidden.
 */
export async function cleanUpWithin(what: string, cleanup: () => Promise<unknown>, timeoutMs = 5_000) {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), timeoutMs);
  });
  const settled = cleanup().then(
    () => false,
    () => false,
  );
  if (await Promise.race([settled, gaveUp])) console.warn(`${what}: not done after ${timeoutMs} ms, left behind`);
  clearTimeout(timer);
}
