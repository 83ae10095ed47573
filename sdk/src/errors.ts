import type { components } from './generated/openapi.js';

/** The codes the API answers with (the `Error` envelope of the API reference). */
export type ApiErrorCode = components['schemas']['Error']['error']['code'];

/**
 * Codes the SDK itself assigns when there is no API error envelope to read:
 * - `NETWORK_ERROR`: the request never got an HTTP answer (DNS, refused or reset connection, TLS);
 * - `TIMEOUT`: no complete answer within `timeoutMs`;
 * - `ABORTED`: your `signal` aborted the call;
 * - `UNEXPECTED_RESPONSE`: an answer that is not Convene's JSON (a proxy's HTML 502 page, a body that is not JSON).
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'UNEXPECTED_RESPONSE';

export type ConveneErrorCode = ApiErrorCode | ClientErrorCode;

/** One entry of `details` (VALIDATION_FAILED names each field). */
export interface ConveneErrorDetail {
  field?: string;
  message?: string;
  [key: string]: unknown;
}

export interface ConveneErrorInit {
  code: ConveneErrorCode;
  message: string;
  status?: number | null;
  requestId?: string | null;
  details?: ConveneErrorDetail[];
  retryAfterSeconds?: number | null;
  method?: string;
  url?: string;
  cause?: unknown;
}

/**
 * The one error every SDK call throws: API errors (4xx/5xx with Convene's envelope), network
 * failures, timeouts and answers that are not Convene's JSON alike. Switch on `code`.
 */
export class ConveneError extends Error {
  override readonly name = 'ConveneError';
  /** The API's error code, or one of the client codes (NETWORK_ERROR, TIMEOUT, ABORTED, UNEXPECTED_RESPONSE). */
  readonly code: ConveneErrorCode;
  /** HTTP status; null when no HTTP answer arrived. */
  readonly status: number | null;
  /** The request id (`x-request-id`): quote it to support. Null when no HTTP answer arrived. */
  readonly requestId: string | null;
  /** Per-field details (VALIDATION_FAILED), else an empty array. */
  readonly details: ConveneErrorDetail[];
  /** Seconds from `Retry-After` (429, 503), when the answer carried it. */
  readonly retryAfterSeconds: number | null;
  /** The request that failed, e.g. `POST https://convene.example.com/api/v1/rooms`. */
  readonly method: string | undefined;
  readonly url: string | undefined;

  constructor(init: ConveneErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status ?? null;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.method = init.method;
    this.url = init.url;
  }

  /** For logs: JSON.stringify(err) keeps what support needs. */
  toJSON() {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      requestId: this.requestId,
      message: this.message,
      details: this.details,
      method: this.method,
      url: this.url,
    };
  }

  /** True for errors worth retrying later with the same Idempotency-Key (rate limit, unavailable, network). */
  get retryable(): boolean {
    return ['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'MEDIA_LAYER_UNAVAILABLE', 'NETWORK_ERROR', 'TIMEOUT'].includes(
      this.code,
    );
  }
}

export function isConveneError(value: unknown): value is ConveneError {
  return value instanceof ConveneError;
}

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}

const snippet = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
};

/** A non-2xx answer as a ConveneError: the API envelope when there is one, else a description of what came back. */
export function errorFromResponse(response: Response, bodyText: string, method: string): ConveneError {
  const requestId = response.headers.get('x-request-id');
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  let parsed: unknown;
  try {
    parsed = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    parsed = undefined;
  }
  const envelope = (
    parsed as { error?: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown } } | undefined
  )?.error;
  if (envelope && typeof envelope.code === 'string' && typeof envelope.message === 'string') {
    return new ConveneError({
      code: envelope.code as ApiErrorCode,
      message: envelope.message,
      status: response.status,
      requestId: typeof envelope.requestId === 'string' ? envelope.requestId : requestId,
      details: Array.isArray(envelope.details) ? (envelope.details as ConveneErrorDetail[]) : [],
      retryAfterSeconds,
      method,
      url: response.url,
    });
  }
  const type = response.headers.get('content-type') ?? 'no content type';
  return new ConveneError({
    code: 'UNEXPECTED_RESPONSE',
    message: `${method} ${response.url} answered ${response.status} ${response.statusText} with a body that is not Convene's error envelope (${type}${bodyText ? `: "${snippet(bodyText)}"` : ', empty'}); a proxy or load balancer in between may have answered`,
    status: response.status,
    requestId,
    retryAfterSeconds,
    method,
    url: response.url,
  });
}
