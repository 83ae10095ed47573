import { requireTenantActor, orNotFound } from '@/lib/console/session';
import { canManage } from '@/lib/domain/console';
import { liveRoom } from '@/lib/domain/live-room';
import { LiveRoom } from '@/components/console/live/LiveRoom';
import { PageHeader } from '@/components/console/PageHeader';

/** A room in progress, live: who is in it, what each is doing and how their call goes; host actions for owners and admins. */
export default async function LiveRoomPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireTenantActor();
  const { id } = await params;
  // Scoped to the signed-in tenant: another tenant's room id is a 404, as in the API.
  const view = await orNotFound(() => liveRoom(actor.tenant, id));
  return (
    <>
      <PageHeader
        back={{ href: `/console/rooms/${id}`, label: 'Room' }}
        title={`${view.name}: live`}
        description={`Updated every 2 seconds${canManage(actor) ? '' : ' · read-only (viewer)'}`}
      />
      <LiveRoom initial={view} canManage={canManage(actor)} />
    </>
  );
}
