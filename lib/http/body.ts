import { z } from 'zod';
import { ApiError, zodToApiError } from '@/lib/errors';
import { isStorableText } from '@/lib/text';

export const MAX_BODY_BYTES = 64 * 1024;

/** Reads the raw body with the 64 KB cap, without trusting Content-Length alone. */
export async function readRawBody(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge(limit);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = (limit: number) =>
  new ApiError('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${limit / 1024} KB.`);

/** Parses a JSON body against a schema. An empty body reads as {} so optional-only bodies may be omitted. */
export function parseJsonBody<S extends z.ZodType>(raw: string, contentType: string | null, schema: S): z.infer<S> {
  let value: unknown = {};
  if (raw.trim() !== '') {
    if (!contentType || !/^application\/([a-z.+-]*\+)?json\b/i.test(contentType)) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
    }
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ApiError('INVALID_JSON', 'The request body is not valid JSON.');
    }
    assertStorableJson(value);
  }
  return validate(schema, value, 'body');
}

/** JSON bodies nest at most this deep (the body itself is level 1); beyond, 400. */
export const MAX_JSON_DEPTH = 32;
/** A JSON body holds at most this many values in all (object members and array elements); beyond, 400. */
const MAX_JSON_NODES = 10_000;

const unstorable = (field: string, where: 'body' | 'query') =>
  new ApiError(
    'VALIDATION_FAILED',
    `Invalid ${where}: ${field}: contains a NUL character or an unpaired UTF-16 surrogate`,
    [{ field, message: 'contains a NUL character or an unpaired UTF-16 surrogate' }],
  );

/**
 * Walks a parsed body once, without recursion: every string and key must be storable, nesting
 * is bounded (deep JSON is 400, not a stack overflow or a slow query) and so is the value count.
 */
export function assertStorableJson(value: unknown): void {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: '', depth: 1 }];
  let nodes = 0;
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) throw unstorable(path || 'body', 'body');
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      throw new ApiError(
        'VALIDATION_FAILED',
        `Invalid body: ${path || 'body'}: nested deeper than ${MAX_JSON_DEPTH} levels`,
        [{ field: path || 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
      );
    }
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((item, i) => [String(i), item]) : Object.entries(v);
    nodes += entries.length;
    if (nodes > MAX_JSON_NODES) {
      throw new ApiError('VALIDATION_FAILED', `Invalid body: more than ${MAX_JSON_NODES} values`, [
        { field: 'body', message: `more than ${MAX_JSON_NODES} values` },
      ]);
    }
    for (const [key, item] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) throw unstorable(path ? `${path}.${JSON.stringify(key)}` : 'body', 'body');
      stack.push({ v: item, path: childPath, depth: depth + 1 });
    }
  }
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query'): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw zodToApiError(result.error, where);
}

/** Query strings: single values as strings; repeated keys become arrays. */
export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    if (!isStorableText(key)) throw unstorable('query', 'query');
    if (!all.every(isStorableText)) throw unstorable(key, 'query');
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** Longest id a path segment may carry; ours are CUIDs (25) or short prefixed strings. */
const MAX_ID_LENGTH = 128;

/** A path segment that cannot be one of our ids (NUL, a lone surrogate, far too long) is 404, as an unknown id is. */
export function assertPathIds(params: Record<string, string | string[]>): void {
  for (const value of Object.values(params)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (
        typeof v === 'string' &&
        (v.length > MAX_ID_LENGTH || !isStorableText(v) || /[\u0000-\u001f\u007f]/.test(v))
      ) {
        throw new ApiError('NOT_FOUND', 'Resource not found.');
      }
    }
  }
}
