import { db } from '@/lib/db';
import { processState } from '@/lib/runtime/process-state';

/**
 * Daily usage counters per tenant. API requests are counted in memory and flushed in batches
 * (one upsert per tenant and metric every few seconds) so counting costs no query per request.
 * A crash loses at most one flush interval of request counts; minutes are derived from rows.
 */
type UsageMetric =
  | 'api_requests'
  | 'participant_minutes'
  | 'recording_minutes'
  | 'streaming_minutes'
  | 'caption_minutes';

const usage = processState('usage', () => ({
  pending: new Map<string, number>(),
  timer: undefined as NodeJS.Timeout | undefined,
  /** The flush being written: the next waits for it, so a read that flushes first sees every count. */
  flushing: Promise.resolve(),
}));
const FLUSH_INTERVAL_MS = 5_000;

const DAY_MS = 86_400_000;
// Every API request is counted under its UTC day: the day's text is made again only when a
// request falls outside the day it was last made for, not once per request.
let lastDay = { start: 0, end: 0, text: '' };

function utcDay(at: Date): string {
  const t = at.getTime();
  if (t < lastDay.start || t >= lastDay.end) {
    const start = Math.floor(t / DAY_MS) * DAY_MS;
    lastDay = { start, end: start + DAY_MS, text: at.toISOString().slice(0, 10) };
  }
  return lastDay.text;
}

export function recordApiRequest(tenantId: string, at = new Date()): void {
  addUsage({ tenantId, metric: 'api_requests', amount: 1, at });
}

export function addUsage({
  tenantId,
  metric,
  amount,
  at = new Date(),
}: {
  tenantId: string;
  metric: UsageMetric;
  amount: number;
  at?: Date;
}): void {
  if (amount <= 0) return;
  const key = `${tenantId}|${utcDay(at)}|${metric}`;
  usage.pending.set(key, (usage.pending.get(key) ?? 0) + amount);
  usage.timer ??= setTimeout(() => void flushUsage(), FLUSH_INTERVAL_MS).unref();
}

/** Writes the counts made so far, after any flush still being written (a timer's, while a read flushes). */
export function flushUsage(): Promise<void> {
  usage.flushing = usage.flushing.then(writePending);
  return usage.flushing;
}

async function writePending(): Promise<void> {
  usage.timer = undefined;
  const batch = [...usage.pending.entries()];
  usage.pending.clear();
  for (const [key, amount] of batch) {
    const [tenantId, day, metric] = key.split('|');
    try {
      await db().$executeRaw`
        INSERT INTO "UsageCounter" ("tenantId", "day", "metric", "value")
        VALUES (${tenantId}, ${day}::date, ${metric}, ${BigInt(Math.round(amount))})
        ON CONFLICT ("tenantId", "day", "metric") DO UPDATE SET "value" = "UsageCounter"."value" + EXCLUDED."value"`;
    } catch {
      // The tenant may have been deleted meanwhile; a counter is not worth failing over.
    }
  }
}

export interface UsageDay {
  day: string;
  apiRequests: number;
  participantMinutes: number;
  recordingMinutes: number;
  streamingMinutes: number;
  captionMinutes: number;
}

const METRIC_FIELD: Record<UsageMetric, keyof Omit<UsageDay, 'day'>> = {
  api_requests: 'apiRequests',
  participant_minutes: 'participantMinutes',
  recording_minutes: 'recordingMinutes',
  streaming_minutes: 'streamingMinutes',
  caption_minutes: 'captionMinutes',
};

/**
 * Daily usage for a tenant, UTC days from..to inclusive (default: the last 30 days), plus
 * month-to-date totals. Participant-minutes come from participants' sessions (duration, credited
 * to the day they left); the other metrics from the daily counters.
 */
export async function tenantUsage(tenantId: string, range: { from?: string; to?: string }, now = new Date()) {
  await flushUsage();
  const to = range.to ? new Date(`${range.to}T00:00:00Z`) : new Date(`${utcDay(now)}T00:00:00Z`);
  const from = range.from ? new Date(`${range.from}T00:00:00Z`) : new Date(to.getTime() - 29 * 86_400_000);
  const days = new Map<string, UsageDay>();
  for (let t = from.getTime(); t <= to.getTime() && days.size < 366; t += 86_400_000) {
    const day = utcDay(new Date(t));
    days.set(day, {
      day,
      apiRequests: 0,
      participantMinutes: 0,
      recordingMinutes: 0,
      streamingMinutes: 0,
      captionMinutes: 0,
    });
  }
  const counters = await db().usageCounter.findMany({ where: { tenantId, day: { gte: from, lte: to } } });
  for (const c of counters) {
    const entry = days.get(utcDay(c.day));
    const field = METRIC_FIELD[c.metric as UsageMetric];
    if (entry && field) entry[field] += Number(c.value);
  }
  const sessions = await db().$queryRaw<{ day: Date; minutes: number }[]>`
    SELECT date_trunc('day', "leftAt")::date AS day, (sum(duration) / 60.0)::float AS minutes
    FROM "Participant" WHERE "tenantId" = ${tenantId} AND "leftAt" >= ${from} AND "leftAt" < ${new Date(to.getTime() + 86_400_000)} AND duration IS NOT NULL
    GROUP BY 1`;
  for (const s of sessions) {
    const entry = days.get(utcDay(s.day));
    if (entry) entry.participantMinutes += Math.round(s.minutes * 10) / 10;
  }
  const series = [...days.values()];
  const month = utcDay(now).slice(0, 7);
  const monthToDate = series
    .filter((d) => d.day.startsWith(month))
    .reduce(
      (sum, d) => ({
        apiRequests: sum.apiRequests + d.apiRequests,
        participantMinutes: sum.participantMinutes + d.participantMinutes,
        recordingMinutes: sum.recordingMinutes + d.recordingMinutes,
        streamingMinutes: sum.streamingMinutes + d.streamingMinutes,
        captionMinutes: sum.captionMinutes + d.captionMinutes,
      }),
      { apiRequests: 0, participantMinutes: 0, recordingMinutes: 0, streamingMinutes: 0, captionMinutes: 0 },
    );
  return { from: utcDay(from), to: utcDay(to), data: series, monthToDate };
}
