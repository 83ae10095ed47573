import type { Tenant } from '@/lib/generated/prisma/client';
import { sessionQuality } from '@/lib/domain/quality-reads';
import type { ParticipantQuality } from '@/lib/domain/quality.schemas';
import { Badge } from '@/components/console/Badge';
import { fmtSeconds, fmtTime } from '@/components/console/format';
import { QualityCharts } from '@/components/console/quality/QualityCharts';
import { ISSUE_LABELS, ScoreBadge } from '@/components/console/quality/score';
import { secondaryButton } from '@/components/console/styles';
import { Empty, Table, td } from '@/components/console/Table';

const fmt = (v: number | null, unit: string) => (v === null ? '—' : `${Math.round(v * 10) / 10} ${unit}`);

/**
 * The session page's call quality: who had trouble and when, each person's score and typical
 * figures, and their charts (lib/domain/quality.ts, the API's GET /sessions/{id}/quality). What
 * each figure means is in docs/console.md.
 */
export async function SessionQualitySection({
  tenant,
  roomId,
  sessionId,
  startedAt,
  endedAt,
}: {
  tenant: Tenant;
  roomId: string;
  sessionId: string;
  startedAt: string;
  endedAt: string | null;
}) {
  const quality = await sessionQuality(tenant, sessionId, { limit: 100, points: 360 });
  const people = quality.data;
  const from = Date.parse(startedAt);
  const to = endedAt ? Date.parse(endedAt) : Math.max(from, ...people.map((p) => Date.parse(p.lastAt)));
  const troubled = people.filter((p) => p.trouble.length > 0);
  return (
    <section aria-labelledby="call-quality" className="mt-8" data-testid="session-quality">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="call-quality" className="text-lg font-semibold">
          Call quality
        </h2>
        {people.length > 0 && (
          <a href={`/console/rooms/${roomId}/sessions/${sessionId}/quality.csv`} className={secondaryButton} download>
            Download quality (CSV)
          </a>
        )}
      </div>
      {people.length === 0 ? (
        <Empty>No call reported its quality in this session.</Empty>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            {troubled.length
              ? `${troubled.map((p) => p.displayName).join(', ')} had trouble (shaded in their charts).`
              : 'Nobody had trouble.'}{' '}
            Each call measured itself about every 10 s; a score is the worst of its measures, 5 excellent to 1 bad.
            {quality.nextCursor && ' The first 100 participants are shown; the CSV and the API have everyone.'}
          </p>
          <Table
            caption="Call quality by participant"
            head={['Name', 'Score', 'Poor', 'Trouble', 'Sent', 'Received', 'Round trip', 'Loss (worst)', 'Browser']}
          >
            {people.map((p) => (
              <Row key={p.participantId} p={p} />
            ))}
          </Table>
          <div className="mt-4 space-y-6">
            {people.map((p) => (
              <div key={p.participantId} data-testid="quality-participant" data-name={p.displayName}>
                <h3 className="mb-2 text-sm font-semibold">
                  {p.displayName} <ScoreBadge score={p.summary.score} />
                </h3>
                <QualityCharts participant={p} from={from} to={to} />
              </div>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function Row({ p }: { p: ParticipantQuality }) {
  const m = p.summary.measures;
  const worstLoss = Math.max(m.sendLossPct.worst ?? -1, m.recvLossPct.worst ?? -1);
  return (
    <tr data-testid="quality-row" data-name={p.displayName} data-score={p.summary.score ?? ''}>
      <td className={td} data-label="Name">
        {p.displayName}
        <div className="font-mono text-xs text-slate-500">{p.externalUserId}</div>
      </td>
      <td className={td} data-label="Score">
        <ScoreBadge score={p.summary.score} />
      </td>
      <td className={`${td} tabular-nums`} data-label="Poor">
        {fmtSeconds(Math.round(p.summary.poorSeconds))}
      </td>
      <td className={`${td} text-xs`} data-label="Trouble">
        {p.trouble.length ? (
          <ul>
            {p.trouble.slice(0, 5).map((r) => (
              <li key={r.from}>
                {fmtTime(r.from).slice(11, 19)}–{fmtTime(r.to).slice(11, 19)}{' '}
                <Badge tone={r.worstScore <= 2 ? 'red' : 'amber'}>
                  {r.issues.map((i) => ISSUE_LABELS[i]).join(', ')}
                </Badge>
              </li>
            ))}
            {p.trouble.length > 5 && <li>and {p.trouble.length - 5} more</li>}
          </ul>
        ) : (
          '—'
        )}
      </td>
      <td className={`${td} tabular-nums`} data-label="Sent">
        {fmt(m.sendKbps.median, 'kbit/s')}
        {m.sendFps.median !== null && (
          <div className="text-xs text-slate-500">
            {m.sendHeight.median ?? '—'}p · {fmt(m.sendFps.median, 'fps')}
          </div>
        )}
      </td>
      <td className={`${td} tabular-nums`} data-label="Received">
        {fmt(m.recvKbps.median, 'kbit/s')}
        {m.recvFps.median !== null && <div className="text-xs text-slate-500">{fmt(m.recvFps.median, 'fps')}</div>}
      </td>
      <td className={`${td} tabular-nums`} data-label="Round trip">
        {fmt(m.rttMs.median, 'ms')}
        <div className="text-xs text-slate-500">worst {fmt(m.rttMs.worst, 'ms')}</div>
      </td>
      <td className={`${td} tabular-nums`} data-label="Loss (worst)">
        {worstLoss >= 0 ? `${worstLoss} %` : '—'}
      </td>
      <td className={`${td} text-xs`} data-label="Browser">
        {[p.client.browser, p.client.os, p.client.networkType].filter(Boolean).join(' · ') || '—'}
      </td>
    </tr>
  );
}
