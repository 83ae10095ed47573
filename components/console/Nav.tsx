'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { secondaryButton } from '@/components/console/styles';

const TENANT_LINKS = [
  { href: '/console', label: 'Overview' },
  { href: '/console/rooms', label: 'Rooms' },
  { href: '/console/keys', label: 'API keys' },
  { href: '/console/webhooks', label: 'Webhooks' },
  { href: '/console/branding', label: 'Branding' },
  { href: '/console/recordings', label: 'Recordings' },
  { href: '/console/plan', label: 'Plan & limits' },
];
const PROVIDER_LINKS = [
  { href: '/console/tenants', label: 'Tenants' },
  { href: '/console/tenants/new', label: 'Provision tenant' },
];

export function Nav({ kind, who, org, role }: { kind: 'tenant' | 'provider'; who: string; org: string; role: string }) {
  const path = usePathname();
  const links = kind === 'tenant' ? TENANT_LINKS : PROVIDER_LINKS;
  const active = (href: string) =>
    href === '/console'
      ? path === href
      : path === href ||
        (path.startsWith(`${href}/`) &&
          !links.some((l) => l.href !== href && l.href.startsWith(href) && path.startsWith(l.href)));
  return (
    <aside className="border-b border-slate-200 bg-slate-50 p-4 md:min-h-screen md:w-60 md:border-b-0 md:border-r dark:border-slate-800 dark:bg-slate-900">
      <p className="font-semibold">Convene</p>
      <p className="truncate text-sm text-slate-600 dark:text-slate-400" title={org}>
        {org}
      </p>
      <nav aria-label="Console" className="mt-4">
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {links.map((l) => (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={active(l.href) ? 'page' : undefined}
                className={`block rounded px-3 py-1.5 text-sm ${active(l.href) ? 'bg-white font-medium shadow-sm dark:bg-slate-800' : 'text-slate-700 hover:bg-white dark:text-slate-300 dark:hover:bg-slate-800'}`}
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 border-t border-slate-200 pt-4 text-sm dark:border-slate-800">
        <p className="truncate" title={who}>
          {who}
        </p>
        <p className="text-slate-600 dark:text-slate-400">{role.toLowerCase()}</p>
        <button
          type="button"
          className={`${secondaryButton} mt-2`}
          onClick={() => signOut({ callbackUrl: '/console/sign-in' })}
        >
          Sign out
        </button>
      </div>
    </aside>
  );
}
