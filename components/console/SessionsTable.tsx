import Link from 'next/link';
import { Badge } from '@/components/console/Badge';
import { fmtSeconds, fmtTime } from '@/components/console/format';
import { link } from '@/components/console/styles';
import { Empty, Table, td } from '@/components/console/Table';

interface SessionRow {
  id: string;
  roomId: string;
  status: 'LIVE' | 'ENDED';
  startedAt: string;
  endedAt: string | null;
  duration: number;
  peakParticipants: number;
  uniqueAttendees: number;
}

/** A room's sessions, each linking to its attendance. */
export function SessionsTable({ sessions }: { sessions: SessionRow[] }) {
  if (!sessions.length) return <Empty>This room has not been live yet.</Empty>;
  return (
    <Table caption="Sessions" head={['Started', 'Ended', 'Duration', 'Peak', 'Attendees', '']}>
      {sessions.map((s) => (
        <tr key={s.id}>
          <td className={`${td} tabular-nums`}>{fmtTime(s.startedAt)}</td>
          <td className={`${td} tabular-nums`}>{s.endedAt ? fmtTime(s.endedAt) : <Badge tone="green">live</Badge>}</td>
          <td className={`${td} tabular-nums`}>{fmtSeconds(s.duration)}</td>
          <td className={`${td} tabular-nums`}>{s.peakParticipants}</td>
          <td className={`${td} tabular-nums`}>{s.uniqueAttendees}</td>
          <td className={td}>
            <Link href={`/console/rooms/${s.roomId}/sessions/${s.id}`} className={link}>
              Attendance<span className="sr-only"> of the session started {fmtTime(s.startedAt)}</span>
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}
