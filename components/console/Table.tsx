/**
 * A console table. `stack`: on a phone each row becomes a card of "heading: value" lines (each
 * cell names its column in data-label: use `cell(heading)`), so a wide table never scrolls the
 * page sideways; from the sm breakpoint it is a table again. Without it, a wide table scrolls
 * inside its own box, which is `relative` so that a cell's absolutely placed text (an sr-only
 * label) is clipped with it instead of widening the page.
 */
export function Table({
  head,
  children,
  caption,
  stack = false,
}: {
  head: string[];
  children: React.ReactNode;
  caption: string;
  stack?: boolean;
}) {
  return (
    <div
      className={`rounded-lg border border-slate-200 dark:border-slate-800 ${stack ? 'convene-stack-table max-sm:border-0' : 'relative overflow-x-auto'}`}
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-4 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white dark:divide-slate-800 dark:bg-slate-950">{children}</tbody>
      </table>
    </div>
  );
}

/** A table cell's class list. */
export const td = 'px-4 py-2 align-top';

/** A cell of a stacking table: its class list and the column it shows under on a phone. */
export const cell = (heading: string, extra = '') => ({ className: `${td} ${extra}`.trim(), 'data-label': heading });

/** What a list page shows instead of an empty table. */
export function Empty({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
      {children}
    </p>
  );
}
