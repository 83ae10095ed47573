import Link from 'next/link';
import { requireTenantActor, listQuery } from '@/lib/console/session';
import { canManage } from '@/lib/domain/console';
import { listRecordings } from '@/lib/domain/recordings';
import { recordingListQuery } from '@/lib/domain/recordings.schemas';
import { deleteRecordingAction } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { Badge, statusTone } from '@/components/console/Badge';
import { fmtDate } from '@/components/console/format';
import { PageHeader } from '@/components/console/PageHeader';
import { link, secondaryButton } from '@/components/console/styles';
import { Empty, Table, td } from '@/components/console/Table';

const size = (bytes: number | null) =>
  bytes === null ? '—' : bytes > 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} KB`;

export default async function RecordingsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requireTenantActor();
  const query = listQuery(recordingListQuery, await searchParams);
  const page = await listRecordings(actor.tenant, { ...query, roomId: undefined });
  return (
    <>
      <PageHeader title="Recordings" description="Downloads stream from your storage; nothing is public." />
      {page.data.length === 0 ? (
        <Empty>No recordings yet.</Empty>
      ) : (
        <Table caption="Recordings" head={['Recording', 'Room', 'Status', 'Duration', 'Size', 'Created', '']}>
          {page.data.map((r) => (
            <tr key={r.id}>
              <td className={`${td} font-mono text-xs`}>{r.id}</td>
              <td className={td}>
                <Link href={`/console/rooms/${r.roomId}`} className={link}>
                  Room
                </Link>
              </td>
              <td className={td}>
                <Badge tone={statusTone(r.status)}>{r.status.toLowerCase()}</Badge>
                {r.error && <div className="mt-1 text-xs">{r.error}</div>}
              </td>
              <td className={`${td} tabular-nums`}>{r.duration ? `${Math.round(r.duration / 60)} min` : '—'}</td>
              <td className={`${td} tabular-nums`}>{size(r.sizeBytes)}</td>
              <td className={td}>{fmtDate(r.createdAt)}</td>
              <td className={`${td} whitespace-nowrap text-right`}>
                <span className="inline-flex gap-2">
                  {r.status === 'COMPLETED' && (
                    <a href={`/console/recordings/${r.id}/download`} className={secondaryButton} download>
                      Download
                    </a>
                  )}
                  {r.status !== 'STARTING' && r.status !== 'ACTIVE' && (
                    <ActionButton
                      action={deleteRecordingAction.bind(null, r.id)}
                      label="Delete"
                      tone="danger"
                      confirm="Delete this recording and its file?"
                      success="Recording deleted"
                      disabled={!canManage(actor)}
                      disabledReason="Your role cannot delete recordings"
                    />
                  )}
                </span>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {page.nextCursor && (
        <Link href={`/console/recordings?cursor=${page.nextCursor}`} className={`${secondaryButton} mt-4`}>
          Older recordings
        </Link>
      )}
    </>
  );
}
