import { z } from 'zod';
import { ApiError } from '@/lib/errors';

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

export function encodeCursor(pos: CursorPosition): string {
  return Buffer.from(JSON.stringify([pos.createdAt.toISOString(), pos.id])).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(createdAt);
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new ApiError('VALIDATION_FAILED', 'cursor: not a cursor returned by this API', [
      { field: 'cursor', message: 'not a cursor returned by this API' },
    ]);
  }
}

/**
 * Prisma arguments for one page, newest first: a where-clause fragment for the cursor, the
 * order, and take = limit + 1 so the extra row tells whether another page exists.
 */
export function pageArgs(page: PageQuery) {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  return {
    where: after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : {},
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
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
