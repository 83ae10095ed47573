import { notFound } from 'next/navigation';
import { requireTenantActor, orNotFound } from '@/lib/console/session';
import { getSession } from '@/lib/domain/attendance';
import { Badge } from '@/components/console/Badge';
import { Card } from '@/components/console/Card';
import { fmtSeconds, fmtTime } from '@/components/console/format';
import { PageHeader } from '@/components/console/PageHeader';
import { SessionQualitySection } from '@/components/console/quality/SessionQualitySection';
import { secondaryButton } from '@/components/console/styles';
import { Empty, Table, td } from '@/components/console/Table';
import { SessionNotes } from '@/components/console/notes/SessionNotes';

export default async function SessionPage({ params }: { params: Promise<{ id: string; sessionId: string }> }) {
  const actor = await requireTenantActor();
  const { id, sessionId } = await params;
  const session = await orNotFound(() => getSession(actor.tenant, sessionId));
  if (session.roomId !== id) notFound();
  return (
    <>
      <PageHeader
        back={{ href: `/console/rooms/${id}`, label: 'Room' }}
        title="Session attendance"
        description={`${session.id} · ${fmtTime(session.startedAt)} – ${session.endedAt ? fmtTime(session.endedAt) : 'live'}`}
      >
        <a href={`/console/rooms/${id}/sessions/${session.id}/attendance.csv`} className={secondaryButton} download>
          Download CSV
        </a>
      </PageHeader>
      <div className="mb-6 grid gap-4 md:grid-cols-4">
        <Card title="Status">
          <Badge tone={session.status === 'LIVE' ? 'green' : 'slate'}>{session.status.toLowerCase()}</Badge>
        </Card>
        <Card title="Duration">
          <p className="tabular-nums">{fmtSeconds(session.duration)}</p>
        </Card>
        <Card title="Peak participants">
          <p className="tabular-nums">{session.peakParticipants}</p>
        </Card>
        <Card title="Unique attendees">
          <p className="tabular-nums">{session.uniqueAttendees}</p>
        </Card>
      </div>
      {session.attendance.length ? (
        <Table caption="Attendance" head={['Name', 'Role', 'First join', 'Last leave', 'Connected', 'Intervals']}>
          {session.attendance.map((a) => (
            <tr key={a.participantId}>
              <td className={td}>
                {a.displayName}
                <div className="font-mono text-xs text-slate-500">{a.externalUserId}</div>
              </td>
              <td className={td}>{a.role.toLowerCase()}</td>
              <td className={`${td} tabular-nums`}>{fmtTime(a.firstJoinedAt)}</td>
              <td className={`${td} tabular-nums`}>
                {a.lastLeftAt ? fmtTime(a.lastLeftAt) : <Badge tone="green">connected</Badge>}
              </td>
              <td className={`${td} tabular-nums`}>{fmtSeconds(a.totalSeconds)}</td>
              <td className={`${td} tabular-nums text-xs`}>
                <ul>
                  {a.intervals.map((i) => (
                    <li key={i.joinedAt}>
                      {fmtTime(i.joinedAt)} – {i.leftAt ? fmtTime(i.leftAt) : 'now'} ({fmtSeconds(i.seconds)})
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>Nobody connected in this session.</Empty>
      )}
      <SessionNotes tenant={actor.tenant} roomId={id} sessionId={session.id} />
      <SessionQualitySection
        tenant={actor.tenant}
        roomId={id}
        sessionId={session.id}
        startedAt={session.startedAt}
        endedAt={session.endedAt}
      />
    </>
  );
}
