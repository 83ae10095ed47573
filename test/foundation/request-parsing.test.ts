import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonBody, readRawBody, MAX_BODY_BYTES } from '@/lib/http/body';
import { ApiError } from '@/lib/errors';
import { decodeCursor, encodeCursor, toPage, paginationQuery } from '@/lib/domain/pagination';

const schema = z.object({ name: z.string().min(1), count: z.number().int().optional() });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.code : 'not-an-api-error';
  }
  return undefined;
}

describe('JSON bodies', () => {
  it('parses a valid body', () => {
    expect(parseJsonBody('{"name":"a","count":2}', 'application/json', schema)).toEqual({ name: 'a', count: 2 });
  });
  it('malformed JSON → INVALID_JSON', () => {
    expect(codeOf(() => parseJsonBody('{"name":', 'application/json', schema))).toBe('INVALID_JSON');
  });
  it('wrong content type → UNSUPPORTED_MEDIA_TYPE', () => {
    expect(codeOf(() => parseJsonBody('name=a', 'application/x-www-form-urlencoded', schema))).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(codeOf(() => parseJsonBody('{"name":"a"}', null, schema))).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
  it('wrong types → VALIDATION_FAILED naming each field', () => {
    try {
      parseJsonBody('{"name":5,"count":"x"}', 'application/json; charset=utf-8', schema);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('VALIDATION_FAILED');
      expect((err as ApiError).details!.map((d) => d.field).sort()).toEqual(['count', 'name']);
    }
  });
  it('an empty body reads as {} (so required fields are reported missing)', () => {
    expect(codeOf(() => parseJsonBody('', null, schema))).toBe('VALIDATION_FAILED');
    expect(parseJsonBody('', null, z.object({}))).toEqual({});
  });
  it('bodies over 64 KB → PAYLOAD_TOO_LARGE, even without a Content-Length', async () => {
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const req = new Request('http://x/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await expect(readRawBody(req)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const exact = new Request('http://x/', { method: 'POST', body: 'y'.repeat(MAX_BODY_BYTES) });
    expect((await readRawBody(exact)).length).toBe(MAX_BODY_BYTES);
  });
});

describe('cursor pagination', () => {
  it('round-trips a cursor and rejects a forged one', () => {
    const pos = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: 'ck1' };
    expect(decodeCursor(encodeCursor(pos))).toEqual(pos);
    expect(codeOf(() => decodeCursor('garbage'))).toBe('VALIDATION_FAILED');
  });
  it('returns a next cursor only when more rows exist', () => {
    const rows = [3, 2, 1].map((n) => ({ id: `r${n}`, createdAt: new Date(n * 1000) }));
    const page = paginationQuery.parse({ limit: '2' });
    const first = toPage(rows, page, (r) => r.id);
    expect(first.data).toEqual(['r3', 'r2']);
    expect(first.nextCursor).not.toBeNull();
    expect(toPage(rows.slice(0, 2), page, (r) => r.id).nextCursor).toBeNull();
  });
  it('bounds limit to 1–100', () => {
    expect(paginationQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(paginationQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(paginationQuery.parse({}).limit).toBe(20);
  });
});
