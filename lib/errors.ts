import type { z } from 'zod';

/**
 * The error catalogue: each code, its HTTP status and what it means. Domain code throws ApiError with a
 * code; the route wrapper turns it into the one envelope, the status following from the code. The API
 * reference's error enum and docs/api.md's table (`npm run docs:errors`) are generated from it.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: {
    status: 400,
    meaning: 'A field, query parameter or path segment is invalid; `details` names each.',
  },
  INVALID_JSON: { status: 400, meaning: 'The body is not JSON.' },
  UNAUTHENTICATED: {
    status: 401,
    meaning: 'No credential, an unknown or revoked one, or one of the wrong kind for the endpoint.',
  },
  FORBIDDEN: { status: 403, meaning: 'The credential lacks the permission or role the action needs.' },
  TENANT_SUSPENDED: { status: 403, meaning: 'The tenant is suspended by its provider.' },
  TEST_MODE_MEDIA_DISABLED: { status: 403, meaning: 'A test-mode (sandbox) tenant asked for billable media.' },
  FEATURE_DISABLED: { status: 403, meaning: "The room's or tenant's switches turn the feature off." },
  PLAN_LIMIT_REACHED: {
    status: 403,
    meaning: "The plan's limit (rooms, minutes, concurrent recordings, streams or ingresses) is reached.",
  },
  CAPTIONS_NOT_CONFIGURED: {
    status: 403,
    meaning:
      'This installation runs no captions worker (no speech-to-text service, `STT_BASE_URL`); nothing is started.',
  },
  TRANSCRIPTION_NOT_CONFIGURED: {
    status: 403,
    meaning:
      'This installation has no speech-to-text service (`STT_BASE_URL`): no transcript can be made; nothing is started.',
  },
  SUMMARIES_NOT_CONFIGURED: {
    status: 403,
    meaning:
      'This installation has no language-model service (`LLM_BASE_URL`): no summary can be made; nothing is started.',
  },
  NOT_FOUND: { status: 404, meaning: "No such resource — also the answer for another tenant's ids." },
  ROOM_FULL: { status: 409, meaning: "The room's participant cap is reached." },
  INVALID_STATE: { status: 409, meaning: 'The resource is not in a state that allows this (e.g. the room has ended).' },
  CONFLICT: { status: 409, meaning: 'A duplicate, or an `Idempotency-Key` reused with another body.' },
  SESSION_NOT_LIVE: {
    status: 409,
    meaning:
      "A quality report for a session that is not the room's live one (it ended, or the room is not live); nothing was stored.",
  },
  QUALITY_SAMPLES_FULL: {
    status: 409,
    meaning: "This participant's quality samples for the session reached their cap; the report was not stored.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    meaning: "The body is over the endpoint's limit (64 KB unless its reference says otherwise).",
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is not `application/json`.' },
  ROOM_LOCKED: { status: 423, meaning: 'The room is locked by a host.' },
  TOO_EARLY: { status: 425, meaning: 'Joining a scheduled room before its window opens.' },
  RATE_LIMITED: { status: 429, meaning: 'Over a rate limit; `Retry-After` says when to retry.' },
  INTERNAL: { status: 500, meaning: 'Our bug; the `requestId` finds it in our logs.' },
  MEDIA_LAYER_UNAVAILABLE: { status: 502, meaning: 'The media layer (LiveKit) did not answer or refused.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning: 'The database is unreachable or busy; retry (see below for what was changed).',
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

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
    this.status = ERROR_CATALOGUE[code].status;
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
