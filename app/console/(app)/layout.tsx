import type { Metadata } from 'next';
import { Toaster } from 'sonner';
import { requireActor } from '@/lib/console/session';
import { Nav } from '@/components/console/Nav';

export const metadata: Metadata = { title: 'Convene console' };
export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const actor = await requireActor();
  const org = actor.kind === 'tenant' ? actor.tenant.name : actor.providerName;
  return (
    <div className="md:flex">
      <Nav kind={actor.kind} who={actor.email} org={org} role={actor.role} />
      <main id="main" className="min-w-0 flex-1 p-4 md:p-8">
        {children}
      </main>
      <Toaster richColors closeButton position="top-right" />
    </div>
  );
}
