/** How every view renders an optional timestamp: ISO 8601 UTC, or null. */
export const iso = (d: Date | null | undefined): string | null => d?.toISOString() ?? null;

/** Whole seconds from `from` to `to`, never negative; null when either is missing. */
export function secondsBetween(from: Date, to: Date): number;
export function secondsBetween(from: Date | null | undefined, to: Date | null | undefined): number | null;
export function secondsBetween(from: Date | null | undefined, to: Date | null | undefined): number | null {
  return from && to ? Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)) : null;
}

/**
 * A row as PostgreSQL's to_jsonb gives it (timestamps in UTC without a zone) → the Prisma shape:
 * the named timestamp columns become Dates, the rest is as JSON has it.
 */
export function rowFromJson<T>(row: Record<string, unknown>, dates: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const f of dates) out[f] = row[f] == null ? null : new Date(`${row[f] as string}Z`);
  return out as T;
}
