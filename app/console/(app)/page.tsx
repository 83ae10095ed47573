import Link from 'next/link';
import { redirect } from 'next/navigation';
import { requireActor } from '@/lib/console/session';
import { tenantOverview } from '@/lib/domain/console';
import { Stat } from '@/components/console/Card';
import { PageHeader } from '@/components/console/PageHeader';
import { UsageCharts } from '@/components/console/UsageCharts';

export default async function OverviewPage() {
  const actor = await requireActor();
  if (actor.kind === 'provider') redirect('/console/tenants');
  const overview = await tenantOverview(actor.tenant);
  return (
    <>
      <PageHeader
        title="Overview"
        description={actor.tenant.isTestMode ? 'Test mode: rooms run without media billing.' : 'Live mode.'}
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Live rooms now"
          value={
            <Link href="/console/rooms?status=ACTIVE" className="hover:underline">
              {overview.liveRooms}
            </Link>
          }
        />
        <Stat label="Participants now" value={overview.participantsNow} />
        <Stat label="Participant-minutes this month" value={Math.round(overview.monthToDate.participantMinutes)} />
        <Stat label="API requests this month" value={overview.monthToDate.apiRequests} />
      </div>
      <UsageCharts days={overview.days} />
    </>
  );
}
