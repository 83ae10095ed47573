/** How every view renders an optional timestamp: ISO 8601 UTC, or null. */
export const iso = (d: Date | null | undefined): string | null => d?.toISOString() ?? null;

/** Whole seconds from `from` to `to`, never negative; null when either is missing. */
export function secondsBetween(from: Date, to: Date): number;
export function secondsBetween(from: Date | null | undefined, to: Date | null | undefined): number | null;
export function secondsBetween(from: Date | null | undefined, to: Date | null | undefined): number | null {
  return from && to ? Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)) : null;
}
