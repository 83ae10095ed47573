import Link from 'next/link';

/** The console's few visual primitives, so pages read as content rather than class lists. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: React.ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      </div>
      {children}
    </header>
  );
}

export function Card({
  title,
  children,
  className = '',
}: {
  title?: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section
      className={`rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${className}`}
      aria-label={title}
    >
      {title && <h2 className="mb-3 text-sm font-semibold text-slate-700 dark:text-slate-300">{title}</h2>}
      {children}
    </section>
  );
}

export function Stat({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Card>
      <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums">{value}</p>
    </Card>
  );
}

const BADGE: Record<string, string> = {
  green: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200',
  amber: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200',
  red: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  slate: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

export function Badge({ tone = 'slate', children }: { tone?: keyof typeof BADGE; children: React.ReactNode }) {
  return <span className={`inline-flex rounded px-2 py-0.5 text-xs font-medium ${BADGE[tone]}`}>{children}</span>;
}

export function statusTone(status: string): keyof typeof BADGE {
  const s = status.toUpperCase();
  if (['ACTIVE', 'DELIVERED', 'COMPLETED', 'CONNECTED'].includes(s)) return 'green';
  if (['PENDING', 'RETRYING', 'WAITING', 'STARTING', 'EXPIRING'].includes(s)) return 'amber';
  if (['FAILED', 'SUSPENDED', 'REVOKED', 'DENIED', 'REMOVED'].includes(s)) return 'red';
  return 'slate';
}

export function Table({ head, children, caption }: { head: string[]; children: React.ReactNode; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
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

export const td = 'px-4 py-2 align-top';

export function Empty({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
      {children}
    </p>
  );
}

export function FilterLinks({
  label,
  param,
  options,
  current,
  base,
}: {
  label: string;
  param: string;
  options: string[];
  current?: string;
  base: string;
}) {
  const cls = (on: boolean) =>
    `rounded px-3 py-1 text-sm ${on ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`;
  return (
    <nav aria-label={label} className="mb-4 flex flex-wrap gap-1">
      <Link href={base} className={cls(!current)} aria-current={!current ? 'page' : undefined}>
        All
      </Link>
      {options.map((o) => (
        <Link
          key={o}
          href={`${base}?${param}=${o}`}
          className={cls(current === o)}
          aria-current={current === o ? 'page' : undefined}
        >
          {o.charAt(0).toUpperCase() + o.slice(1).toLowerCase()}
        </Link>
      ))}
    </nav>
  );
}

export const fmtDate = (iso: string | Date | null | undefined) =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';
export const button =
  'inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50';
export const primaryButton = `${button} bg-blue-700 text-white hover:bg-blue-800`;
export const secondaryButton = `${button} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800`;
export const dangerButton = `${button} bg-red-700 text-white hover:bg-red-800`;
export const input =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';
