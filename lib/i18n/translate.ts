import type { en } from '@/lib/i18n/en';

/** The shape of every text of the hosted call UI (English's, with literal types widened). */
type Widen<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Widen<R>
    : T extends object
      ? { [K in keyof T]: Widen<T[K]> }
      : T;
export type Messages = Widen<typeof en>;

/**
 * A translation. Typed as partial so a text added to en.ts never breaks the build: it shows in
 * English until translated, and test/ui/i18n.test.ts fails until every language has it.
 */
export type Translation = DeepPartial<Messages>;
type DeepPartial<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

function merge<T>(base: T, over: unknown): T {
  if (over === undefined || over === null) return base;
  if (typeof base !== 'object' || base === null || typeof over !== 'object')
    return (typeof over === typeof base ? over : base) as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(base as Record<string, unknown>))
    out[key] = merge(value, (over as Record<string, unknown>)[key]);
  // Maps keyed by data (e.g. roles) may hold keys English lacks.
  for (const [key, value] of Object.entries(over as Record<string, unknown>)) if (!(key in out)) out[key] = value;
  return out as T;
}

/** English with a translation over it: anything the translation lacks stays English. */
export function translated(base: Messages, translation: Translation): Messages {
  return merge<Messages>(base, translation);
}
