import Link from 'next/link';

/** A list page's filter as links (All, then each option as `?param=option`), the current one marked. */
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
