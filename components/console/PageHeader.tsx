import Link from 'next/link';
import { link } from '@/components/console/styles';

/** A page's title and description, its actions (children) at the right, and a link back up when it has a parent page. */
export function PageHeader({
  title,
  description,
  back,
  children,
}: {
  title: string;
  description?: string;
  back?: { href: string; label: string };
  children?: React.ReactNode;
}) {
  return (
    <>
      {back && (
        <p className="mb-2 text-sm">
          <Link href={back.href} className={link}>
            ← {back.label}
          </Link>
        </p>
      )}
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
        </div>
        {children}
      </header>
    </>
  );
}
