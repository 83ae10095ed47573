import { ConveneError, parseRetryAfter } from './errors.js';

export interface TransportOptions {
  /** The fetch to call (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** Per attempt, headers to end of body (default 30 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt for 429, 503, network failures and timeouts (default 2). */
  maxRetries?: number;
  /** First backoff when the answer has no Retry-After; doubles per retry, with jitter (default 500 ms). */
  retryBaseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the 429/503 is returned as an error (default 60 000 ms). */
  maxRetryDelayMs?: number;
}

export const DEFAULTS = { timeoutMs: 30_000, maxRetries: 2, retryBaseDelayMs: 500, maxRetryDelayMs: 60_000 } as const;

const RETRY_STATUSES = new Set([429, 503]);

function randomKey(): string {
  return globalThis.crypto.randomUUID();
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Aborts when any of the signals does (AbortSignal.any where the runtime has it). */
function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * A fetch for openapi-fetch that adds what every call needs: an Idempotency-Key on every POST
 * (yours, or generated once and reused across retries, so a retried POST is never applied twice),
 * a timeout per attempt, retries of 429/503 honouring Retry-After (else exponential backoff with
 * jitter) and of network failures and timeouts, and typed errors for failures without an answer.
 */
export function createTransport(options: TransportOptions = {}) {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
  const baseDelay = options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs;
  const maxDelay = options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs;

  return async function conveneFetch(input: Request): Promise<Response> {
    const method = input.method.toUpperCase();
    const headers = new Headers(input.headers);
    if (method === 'POST' && !headers.has('idempotency-key')) headers.set('idempotency-key', randomKey());
    // Read the body once so that every attempt sends the same bytes.
    const body = input.body ? await input.arrayBuffer() : undefined;
    const userSignal = input.signal;
    const describe = `${method} ${input.url}`;

    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = anySignal([userSignal, timeout]);
      let response: Response;
      try {
        // The signal goes in fetch's own options, not in a Request made for it: undici holds a
        // Request's signal only weakly, so once the Request was collected (Node 20) the attempt
        // never aborted and a call hung past its timeout.
        response = await fetchImpl(input.url, { method, headers, body, signal, redirect: input.redirect });
      } catch (cause) {
        let error: ConveneError;
        if (userSignal.aborted) {
          throw new ConveneError({
            code: 'ABORTED',
            message: `${describe} was aborted`,
            method,
            url: input.url,
            cause,
          });
        } else if (timeout.aborted) {
          error = new ConveneError({
            code: 'TIMEOUT',
            message: `${describe} got no answer within ${timeoutMs} ms`,
            method,
            url: input.url,
            cause,
          });
        } else {
          const reason =
            cause instanceof Error
              ? [cause.message, (cause.cause as Error | undefined)?.message].filter(Boolean).join(': ')
              : String(cause);
          error = new ConveneError({
            code: 'NETWORK_ERROR',
            message: `${describe} failed before any answer (${reason})`,
            method,
            url: input.url,
            cause,
          });
        }
        if (attempt >= maxRetries) throw error;
        await sleep(backoff(attempt), userSignal).catch((reason) => {
          throw new ConveneError({
            code: 'ABORTED',
            message: `${describe} was aborted`,
            method,
            url: input.url,
            cause: reason,
          });
        });
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= maxRetries) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const delay = retryAfter === null ? backoff(attempt) : retryAfter * 1000;
      if (delay > maxDelay) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, userSignal).catch((reason) => {
        throw new ConveneError({
          code: 'ABORTED',
          message: `${describe} was aborted`,
          method,
          url: input.url,
          cause: reason,
        });
      });
    }
  };

  function backoff(attempt: number): number {
    const exp = Math.min(baseDelay * 2 ** attempt, 8_000);
    return exp / 2 + Math.random() * (exp / 2);
  }
}
