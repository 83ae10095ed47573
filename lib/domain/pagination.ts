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

type SortDirection = 'asc' | 'desc';
type CursorValue = Date | number | string;

/** One column of a list's order, and what its cursor value is read back as. */
interface SortKey {
  field: string;
  direction: SortDirection;
  type: 'date' | 'int' | 'string';
}

/**
 * A list's order: columns whose last is unique (id), so every row has one position. `tag` marks
 * the cursors of a second order of the same list, so one is never read as the other.
 */
export interface ListOrder {
  keys: readonly SortKey[];
  tag?: string;
}

/** By a timestamp, then id. */
export function byTime(field: string, direction: SortDirection): ListOrder {
  return {
    keys: [
      { field, direction, type: 'date' },
      { field: 'id', direction, type: 'string' },
    ],
  };
}

export const NEWEST_FIRST = byTime('createdAt', 'desc');
export const OLDEST_FIRST = byTime('createdAt', 'asc');

type Position = Record<string, CursorValue>;

/** A cursor is the position of a page's last row: its sort key (after the tag, if any) as a base64url JSON array. */
export function encodeCursor(row: object, order: ListOrder = NEWEST_FIRST): string {
  const values = order.keys.map(({ field }) => {
    const value = (row as Record<string, CursorValue>)[field];
    return value instanceof Date ? value.toISOString() : value;
  });
  return Buffer.from(JSON.stringify(order.tag ? [order.tag, ...values] : values)).toString('base64url');
}

/** Reads a cursor back into a position (field → value); anything this order did not write is 400. */
export function decodeCursor(cursor: string, order: ListOrder = NEWEST_FIRST): Position {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = null;
  }
  const position = Array.isArray(values) ? positionOf(values, order) : null;
  if (position === null) throw validationFailed('cursor', 'not a cursor returned by this API');
  return position;
}

function positionOf(values: unknown[], order: ListOrder): Position | null {
  if (order.tag !== undefined && values.shift() !== order.tag) return null;
  if (values.length !== order.keys.length) return null;
  const position: Position = {};
  for (const [i, key] of order.keys.entries()) {
    const value = cursorValue(values[i], key.type);
    if (value === null) return null;
    position[key.field] = value;
  }
  return position;
}

function cursorValue(value: unknown, type: SortKey['type']): CursorValue | null {
  if (type === 'int') return Number.isSafeInteger(value) ? (value as number) : null;
  // Every string in a cursor is one we wrote: short, and storable (no NUL, no lone surrogate).
  if (typeof value !== 'string' || value.length > 200 || !isStorableText(value)) return null;
  if (type === 'string') return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Prisma arguments for one page in `order`: a where-clause fragment for the rows after the cursor,
 * the order, and take = limit + 1 so the extra row tells whether another page exists.
 *
 * The rows after the cursor are `(k1, k2) < (c1, c2)`, which Prisma can only write as
 * `k1 < c1 OR (k1 = c1 AND k2 < c2)` — no index condition, so a deep page read every row above it.
 * The bound it implies on the first key, `k1 <= c1`, is added beside it: the list's index
 * (tenantId, k1, ...) then starts at the cursor, and the OR drops only the rows that share its k1.
 */
export function pageArgs(page: PageQuery, order: ListOrder = NEWEST_FIRST) {
  const after = page.cursor ? decodeCursor(page.cursor, order) : undefined;
  const [first] = order.keys;
  return {
    where: after
      ? {
          [first.field]: { [first.direction === 'desc' ? 'lte' : 'gte']: after[first.field] },
          OR: order.keys.map((key, i) => afterOn(order.keys.slice(0, i), key, after)),
        }
      : {},
    orderBy: order.keys.map(({ field, direction }) => ({ [field]: direction })),
    take: page.limit + 1,
  };
}

/** Rows equal to the position on the earlier keys and beyond it on this one. */
function afterOn(earlier: readonly SortKey[], key: SortKey, after: Position): Record<string, unknown> {
  const clause: Record<string, unknown> = {};
  for (const { field } of earlier) clause[field] = after[field];
  clause[key.field] = { [key.direction === 'desc' ? 'lt' : 'gt']: after[key.field] };
  return clause;
}

/** The page from rows read with pageArgs (at most limit + 1). */
export function toPage<R extends object, T>(
  rows: R[],
  page: PageQuery,
  map: (row: R) => T,
  { order = NEWEST_FIRST }: { order?: ListOrder } = {},
): Page<T> {
  const hasMore = rows.length > page.limit;
  const visible = hasMore ? rows.slice(0, page.limit) : rows;
  return {
    data: visible.map(map),
    nextCursor: hasMore ? encodeCursor(visible[visible.length - 1], order) : null,
  };
}
