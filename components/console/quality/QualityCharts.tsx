'use client';

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ParticipantQuality } from '@/lib/domain/quality.schemas';

const axis = { fontSize: 11 };
const clock = (t: number) => new Date(t).toISOString().slice(11, 19);
const EVENT_COLOURS: Record<string, string> = {
  joined: '#047857',
  rejoined: '#047857',
  left: '#64748b',
  muted: '#b45309',
  unmuted: '#b45309',
  reconnecting: '#b91c1c',
  reconnected: '#b91c1c',
};

/**
 * One participant's quality over the session: the score, then what they sent and received, then
 * round-trip time and loss; their trouble shaded, their events (joined, muted, left, reconnected)
 * as marks on the time axis. Every chart shares the session's time axis.
 */
export function QualityCharts({
  participant,
  from,
  to,
}: {
  participant: ParticipantQuality;
  from: number;
  to: number;
}) {
  const data = participant.series.map((p) => ({ ...p, t: Date.parse(p.at) }));
  const domain: [number, number] = [from, Math.max(to, from + 1000)];
  const marks = (
    <>
      {participant.trouble.map((r) => (
        <ReferenceArea key={r.from} x1={Date.parse(r.from)} x2={Date.parse(r.to)} fill="#fca5a5" fillOpacity={0.35} />
      ))}
      {participant.events.map((e) => (
        <ReferenceLine
          key={`${e.at}-${e.type}`}
          x={Date.parse(e.at)}
          stroke={EVENT_COLOURS[e.type] ?? '#64748b'}
          strokeDasharray="2 3"
        />
      ))}
    </>
  );
  const chart = (title: string, children: React.ReactNode, yAxis: React.ReactElement) => (
    <figure>
      <figcaption className="mb-1 text-xs font-medium text-slate-600 dark:text-slate-400">{title}</figcaption>
      <div className="h-32">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} syncId={participant.participantId}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="t" type="number" scale="time" domain={domain} tickFormatter={clock} tick={axis} />
            {yAxis}
            <Tooltip labelFormatter={(t) => clock(Number(t))} />
            {marks}
            {children}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
  return (
    <div className="grid gap-3 lg:grid-cols-3" data-testid="quality-charts">
      {chart(
        'Score (1–5)',
        <Line dataKey="score" name="Score" stroke="#1d4ed8" dot={false} connectNulls isAnimationActive={false} />,
        <YAxis domain={[1, 5]} ticks={[1, 2, 3, 4, 5]} tick={axis} width={24} />,
      )}
      {chart(
        'Bitrate (kbit/s)',
        <>
          <Line dataKey="sendKbps" name="Sent" stroke="#047857" dot={false} connectNulls isAnimationActive={false} />
          <Line
            dataKey="recvKbps"
            name="Received"
            stroke="#7c3aed"
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
        </>,
        <YAxis tick={axis} width={40} />,
      )}
      {chart(
        'Round trip (ms) and loss (%)',
        <>
          <Line
            dataKey="rttMs"
            name="Round trip ms"
            stroke="#b45309"
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="recvLossPct"
            name="Received lost %"
            stroke="#b91c1c"
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="sendLossPct"
            name="Sent lost %"
            stroke="#e11d48"
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
        </>,
        <YAxis tick={axis} width={40} />,
      )}
    </div>
  );
}
