'use client';

import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card } from '@/components/console/ui';

export interface UsageDay {
  day: string;
  participantMinutes: number;
  apiRequests: number;
  sessions: number;
  webhookSuccessRate: number | null;
}

const short = (day: string) => day.slice(5);

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

export function UsageCharts({ days }: { days: UsageDay[] }) {
  const total = (k: 'participantMinutes' | 'apiRequests' | 'sessions') => days.reduce((s, d) => s + d[k], 0);
  const rated = days.filter((d) => d.webhookSuccessRate !== null);
  const axis = { fontSize: 11 };
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Chart
        title="Participant-minutes per day"
        summary={`${Math.round(total('participantMinutes'))} participant-minutes in the last ${days.length} days.`}
      >
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={short} tick={axis} />
          <YAxis tick={axis} width={40} />
          <Tooltip />
          <Bar dataKey="participantMinutes" name="Participant-minutes" fill="#1d4ed8" />
        </BarChart>
      </Chart>
      <Chart
        title="API requests per day"
        summary={`${total('apiRequests')} API requests in the last ${days.length} days.`}
      >
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={short} tick={axis} />
          <YAxis tick={axis} width={40} />
          <Tooltip />
          <Bar dataKey="apiRequests" name="API requests" fill="#0f766e" />
        </BarChart>
      </Chart>
      <Chart
        title="Sessions per day"
        summary={`${total('sessions')} room sessions started in the last ${days.length} days.`}
      >
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={short} tick={axis} />
          <YAxis tick={axis} width={40} allowDecimals={false} />
          <Tooltip />
          <Bar dataKey="sessions" name="Sessions" fill="#7c3aed" />
        </BarChart>
      </Chart>
      <Chart
        title="Webhook success rate"
        summary={
          rated.length
            ? `Success rate on ${rated.length} days with finished deliveries; latest ${rated[rated.length - 1].webhookSuccessRate}%.`
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
