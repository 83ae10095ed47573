import Link from 'next/link';
import { Badge, Empty, Table, td } from '@/components/console/ui';

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

/** 2026-11-23 10:04:05 UTC: attendance is kept to the second. */
export const fmtTime = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

/** 3725 → "1 h 02 min 05 s". */
export function fmtSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h} h ${pad(m)} min ${pad(s)} s` : m ? `${m} min ${pad(s)} s` : `${s} s`;
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
            <Link
              href={`/console/rooms/${s.roomId}/sessions/${s.id}`}
              className="text-blue-700 hover:underline dark:text-blue-300"
            >
              Attendance<span className="sr-only"> of the session started {fmtTime(s.startedAt)}</span>
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}
