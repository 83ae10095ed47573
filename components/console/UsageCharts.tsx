'use client';

import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card } from '@/components/console/Card';
import { consoleText } from '@/lib/i18n/console';

export interface UsageDay {
  day: string;
  participantMinutes: number;
  apiRequests: number;
  sessions: number;
  webhookSuccessRate: number | null;
}

type DailyCount = 'participantMinutes' | 'apiRequests' | 'sessions';

const short = (day: string) => day.slice(5);
const axis = { fontSize: 11 };

function Chart({ title, children, summary }: { title: string; children: React.ReactElement; summary: string }) {
  return (
    <Card title={title}>
      <figure>
        <div className="h-48">
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        </div>
        <figcaption className="mt-2 text-xs text-slate-600 dark:text-slate-400">{summary}</figcaption>
      </figure>
    </Card>
  );
}

/** One count per day as bars. */
function DailyBars({
  days,
  title,
  summary,
  dataKey,
  name,
  fill,
  wholeNumbers = false,
}: {
  days: UsageDay[];
  title: string;
  summary: string;
  dataKey: DailyCount;
  name: string;
  fill: string;
  wholeNumbers?: boolean;
}) {
  return (
    <Chart title={title} summary={summary}>
      <BarChart data={days}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={short} tick={axis} />
        <YAxis tick={axis} width={40} allowDecimals={!wholeNumbers} />
        <Tooltip />
        <Bar dataKey={dataKey} name={name} fill={fill} />
      </BarChart>
    </Chart>
  );
}

export function UsageCharts({ days }: { days: UsageDay[] }) {
  const total = (k: DailyCount) => days.reduce((s, d) => s + d[k], 0);
  const rated = days.filter((d) => d.webhookSuccessRate !== null);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <DailyBars
        days={days}
        title="Participant-minutes per day"
        summary={consoleText.participantMinutes(Math.round(total('participantMinutes')), days.length)}
        dataKey="participantMinutes"
        name="Participant-minutes"
        fill="#1d4ed8"
      />
      <DailyBars
        days={days}
        title="API requests per day"
        summary={consoleText.apiRequests(total('apiRequests'), days.length)}
        dataKey="apiRequests"
        name="API requests"
        fill="#0f766e"
      />
      <DailyBars
        days={days}
        title="Sessions per day"
        summary={consoleText.sessions(total('sessions'), days.length)}
        dataKey="sessions"
        name="Sessions"
        fill="#7c3aed"
        wholeNumbers
      />
      <Chart
        title="Webhook success rate"
        summary={
          rated.length
            ? consoleText.webhookRate(rated.length, rated[rated.length - 1].webhookSuccessRate ?? 0)
            : 'No finished webhook deliveries yet.'
        }
      >
        <LineChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={short} tick={axis} />
          <YAxis domain={[0, 100]} unit="%" tick={axis} width={44} />
          <Tooltip />
          <Line dataKey="webhookSuccessRate" name="Delivered %" stroke="#b45309" connectNulls dot={false} />
        </LineChart>
      </Chart>
    </div>
  );
}
