import Link from 'next/link';
import { requireTenantActor, listQuery } from '@/lib/console/session';
import { listRooms } from '@/lib/domain/rooms';
import { roomListQuery } from '@/lib/domain/rooms.schemas';
import { Badge, statusTone } from '@/components/console/Badge';
import { FilterLinks } from '@/components/console/FilterLinks';
import { fmtDate } from '@/components/console/format';
import { PageHeader } from '@/components/console/PageHeader';
import { input, link, secondaryButton } from '@/components/console/styles';
import { Empty, Table, td } from '@/components/console/Table';

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function RoomsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireTenantActor();
  const query = listQuery(roomListQuery, await searchParams);
  const page = await listRooms(actor.tenant, query);
  const filters = {
    ...(query.status ? { status: query.status } : {}),
    ...(query.externalId ? { externalId: query.externalId } : {}),
  };
  const next = page.nextCursor
    ? `/console/rooms?${new URLSearchParams({ ...filters, cursor: page.nextCursor })}`
    : null;
  return (
    <>
      <PageHeader title="Rooms" description="Rooms your backend created, newest first." />
      <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
        <FilterLinks
          label="Filter by status"
          param="status"
          options={['ACTIVE', 'WAITING', 'ENDED']}
          current={query.status}
          base="/console/rooms"
        />
        <form method="get" action="/console/rooms" className="flex items-center gap-2" role="search">
          {query.status && <input type="hidden" name="status" value={query.status} />}
          <label htmlFor="externalId" className="text-sm">
            Your id
          </label>
          <input
            id="externalId"
            name="externalId"
            defaultValue={query.externalId ?? ''}
            placeholder="externalId"
            className={`${input} w-48`}
          />
          <button type="submit" className={secondaryButton}>
            Find
          </button>
        </form>
      </div>
      {page.data.length === 0 ? (
        <Empty>
          No rooms{query.status ? ` with status ${query.status.toLowerCase()}` : ''}
          {query.externalId ? ` with id ${query.externalId}` : ''}. Rooms are created with POST /api/v1/rooms.
        </Empty>
      ) : (
        <Table caption="Rooms" head={['Name', 'Status', 'Participants', 'Created', 'External id']}>
          {page.data.map((r) => (
            <tr key={r.id}>
              <td className={td}>
                <Link href={`/console/rooms/${r.id}`} className={`font-medium ${link}`}>
                  {r.name}
                </Link>
              </td>
              <td className={td}>
                <Badge tone={statusTone(r.status)}>{r.status.toLowerCase()}</Badge>
                {r.isLocked && (
                  <span className="ml-1">
                    <Badge>locked</Badge>
                  </span>
                )}
              </td>
              <td className={`${td} tabular-nums`}>
                {r.activeParticipants} / {r.maxParticipants}
              </td>
              <td className={td}>{fmtDate(r.createdAt)}</td>
              <td className={`${td} font-mono text-xs`}>{r.externalId ?? '—'}</td>
            </tr>
          ))}
        </Table>
      )}
      {next && (
        <Link href={next} className={`${secondaryButton} mt-4`}>
          Older rooms
        </Link>
      )}
    </>
  );
}
