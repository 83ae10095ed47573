import { z } from 'zod';
import { ApiError, zodToApiError } from '@/lib/errors';

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
  }
  return validate(schema, value, 'body');
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
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}
