import { sha256Hex } from '@/lib/crypto';
import { db, Prisma } from '@/lib/db';
import { ApiError } from '@/lib/errors';

/**
 * Idempotency-Key on POST: the first response (2xx or 4xx) is stored for 24 h per credential;
 * the same key with the same body (compared canonically: key order and whitespace do not matter) replays it, with another body is 409 CONFLICT. A key whose
 * first request is still running is also 409 (retry later). 5xx responses are not stored, so a
 * retry after our own failure runs again.
 */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

export interface IdempotencyClaim {
  recordId: string;
}

type IdempotencyOutcome = { replay: { status: number; body: string } } | { claim: IdempotencyClaim };

export async function claimIdempotencyKey(
  scope: string,
  key: string,
  method: string,
  path: string,
  rawBody: string,
  now = new Date(),
): Promise<IdempotencyOutcome> {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ApiError('VALIDATION_FAILED', `Idempotency-Key must be 1–${MAX_KEY_LENGTH} characters.`, [
      { field: 'Idempotency-Key', message: `must be 1–${MAX_KEY_LENGTH} characters` },
    ]);
  }
  const requestHash = sha256Hex(`${method} ${path}\n${canonicalBody(rawBody)}`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await db().idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
    if (existing && existing.expiresAt > now) {
      if (existing.requestHash !== requestHash) {
        throw new ApiError('CONFLICT', 'This Idempotency-Key was already used with a different request.');
      }
      if (existing.responseStatus === null || existing.responseBody === null) {
        throw new ApiError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry later.');
      }
      return { replay: { status: existing.responseStatus, body: existing.responseBody } };
    }
    if (existing) await db().idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
    try {
      const record = await db().idempotencyRecord.create({
        data: { scope, key, method, path, requestHash, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
      });
      return { claim: { recordId: record.id } };
    } catch (err) {
      // Two requests with one key raced: the loser reads the winner's record.
      if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002')) throw err;
    }
  }
  throw new ApiError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry later.');
}

/**
 * The body as compared for Idempotency-Key: parsed JSON re-serialised with object keys sorted
 * (so key order and whitespace do not matter; array order does). A body that is not JSON, or
 * nests deeper than the edge allows, compares as its raw text.
 */
function canonicalBody(rawBody: string): string {
  if (rawBody.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
  const sort = (v: unknown, depth: number): unknown => {
    if (depth > 64) throw new Error('too deep');
    if (Array.isArray(v)) return v.map((x) => sort(x, depth + 1));
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k], depth + 1)]),
      );
    }
    return v;
  };
  try {
    return JSON.stringify(sort(parsed, 0));
  } catch {
    return rawBody;
  }
}

export async function completeIdempotencyKey(claim: IdempotencyClaim, status: number, body: string): Promise<void> {
  if (status >= 500) {
    await db()
      .idempotencyRecord.delete({ where: { id: claim.recordId } })
      .catch(() => undefined);
    return;
  }
  await db().idempotencyRecord.update({
    where: { id: claim.recordId },
    data: { responseStatus: status, responseBody: body },
  });
}
