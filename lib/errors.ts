import type { z } from 'zod';

/**
 * The error catalogue (codes → HTTP statuses; README "API conventions"). Domain code throws ApiError with a code;
 * the route wrapper turns it into the one envelope. The status follows from the code.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TENANT_SUSPENDED: 403,
  TEST_MODE_MEDIA_DISABLED: 403,
  FEATURE_DISABLED: 403,
  PLAN_LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ROOM_FULL: 409,
  INVALID_STATE: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ROOM_LOCKED: 423,
  TOO_EARLY: 425,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  MEDIA_LAYER_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

type ErrorCode = keyof typeof ERROR_STATUS;

interface ErrorDetail {
  field?: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** For RATE_LIMITED: the route wrapper sends it as Retry-After (the rules never touch headers). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what = 'Resource') => new ApiError('NOT_FOUND', `${what} not found.`);
export const invalidState = (message: string) => new ApiError('INVALID_STATE', message);
export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);
export const validationFailed = (field: string, message: string) =>
  new ApiError('VALIDATION_FAILED', `${field}: ${message}`, [{ field, message }]);

/**
 * RATE_LIMITED from a limiter's wait (retryAfterMs): rounded up to whole seconds, at least 1, so the
 * message's "Retry after" and the Retry-After header say the same.
 */
export function rateLimited({ retryAfterMs, message }: { retryAfterMs: number; message: string }) {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError('RATE_LIMITED', `${message} Retry after ${retryAfterSeconds} s.`, undefined, retryAfterSeconds);
}

/** A zod failure as VALIDATION_FAILED, one detail per issue naming its field (`where` when the issue is the whole input). */
export function zodToApiError(error: z.ZodError, where: 'body' | 'query' | 'input' = 'body'): ApiError {
  const details: ErrorDetail[] = error.issues.flatMap((issue) =>
    // A strict schema's unknown fields: one detail per field, named, rather than one for the object.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), message: 'is not a known field' }))
      : [{ field: issue.path.length ? issue.path.join('.') : where, message: issue.message }],
  );
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return new ApiError('VALIDATION_FAILED', `Invalid ${where}: ${summary}`, details);
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; requestId: string };
}
