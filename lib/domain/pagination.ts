import { z } from 'zod';
import { validationFailed } from '@/lib/errors';
import { isStorableText } from '@/lib/text';

/** ?limit= (1–100, default 20) and ?cursor=; lists are newest first by (createdAt, id). */
export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof paginationQuery>;

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

interface CursorPosition {
  createdAt: Date;
  id: string;
}

/** A cursor is the position of a page's last row: its sort key as a base64url JSON array. */
export function encodeCursorTuple(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** Reads a cursor back; `parse` returns null for a tuple of the wrong shape (→ 400). */
export function decodeCursorTuple<T>(cursor: string, parse: (values: unknown[]) => T | null): T {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = null;
  }
  // Every string in a cursor is one we wrote: short, and storable (no NUL, no lone surrogate).
  const ours =
    Array.isArray(values) && values.every((v) => typeof v !== 'string' || (v.length <= 200 && isStorableText(v)));
  const position = ours ? parse(values as unknown[]) : null;
  if (position === null) throw validationFailed('cursor', 'not a cursor returned by this API');
  return position;
}

/** A valid Date from a cursor's timestamp string, else null. */
export function cursorDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function encodeCursor(pos: CursorPosition): string {
  return encodeCursorTuple([pos.createdAt.toISOString(), pos.id]);
}

export function decodeCursor(cursor: string): CursorPosition {
  return decodeCursorTuple(cursor, ([createdAt, id]) => {
    const date = cursorDate(createdAt);
    return date && typeof id === 'string' ? { createdAt: date, id } : null;
  });
}

/**
 * Prisma arguments for one page, newest first (or oldest first with 'asc'): a where-clause fragment for the cursor, the
 * order, and take = limit + 1 so the extra row tells whether another page exists.
 */
export function pageArgs(page: PageQuery, direction: 'desc' | 'asc' = 'desc') {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  const beyond = direction === 'desc' ? 'lt' : 'gt';
  return {
    where: after
      ? {
          OR: [
            { createdAt: { [beyond]: after.createdAt } },
            { createdAt: after.createdAt, id: { [beyond]: after.id } },
          ],
        }
      : {},
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: page.limit + 1,
  };
}

export function toPage<R extends CursorPosition, T>(rows: R[], page: PageQuery, map: (row: R) => T): Page<T> {
  const hasMore = rows.length > page.limit;
  const visible = hasMore ? rows.slice(0, page.limit) : rows;
  return {
    data: visible.map(map),
    nextCursor: hasMore ? encodeCursor(visible[visible.length - 1]) : null,
  };
}
