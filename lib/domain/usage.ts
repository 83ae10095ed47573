import { db } from '@/lib/db';
import { processState } from '@/lib/runtime/process-state';

/**
 * Daily usage counters per tenant. API requests are counted in memory and flushed in batches
 * (one upsert per tenant and metric every few seconds) so counting costs no query per request.
 * A crash loses at most one flush interval of request counts.
 *
 * Figures read over many days are rolled up per day by the database itself (triggers calling
 * convene_add_usage and friends, prisma/sql/), so reading a month costs thirty rows however busy the tenant:
 * participant_seconds (participants' durations by the day they left), sessions_started,
 * webhooks_delivered and webhooks_failed.
 */
type UsageMetric =
  | 'api_requests'
  | 'participant_minutes'
  | 'recording_minutes'
  | 'streaming_minutes'
  | 'caption_minutes'
  | 'transcription_minutes'
  | 'summaries';

const usage = processState('usage', () => ({
  pending: new Map<string, number>(),
  timer: undefined as NodeJS.Timeout | undefined,
  /** The flush being written: the next waits for it, so a read that flushes first sees every count. */
  flushing: Promise.resolve(),
}));
const FLUSH_INTERVAL_MS = 5_000;

/** The daily rollup of participants' durations (seconds, by the UTC day they left). */
export const PARTICIPANT_SECONDS = 'participant_seconds';

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

/** Seconds as minutes to one decimal. */
export function minutesOf(seconds: bigint | number): number {
  return Math.round((Number(seconds) / 60) * 10) / 10;
}

export interface UsageDay {
  day: string;
  apiRequests: number;
  participantMinutes: number;
  recordingMinutes: number;
  streamingMinutes: number;
  captionMinutes: number;
  transcriptionMinutes: number;
  summaries: number;
}

const METRIC_FIELD: Record<UsageMetric, keyof Omit<UsageDay, 'day'>> = {
  api_requests: 'apiRequests',
  participant_minutes: 'participantMinutes',
  recording_minutes: 'recordingMinutes',
  streaming_minutes: 'streamingMinutes',
  caption_minutes: 'captionMinutes',
  transcription_minutes: 'transcriptionMinutes',
  summaries: 'summaries',
};

/**
 * Daily usage for a tenant, UTC days from..to inclusive (default: the last 30 days), plus
 * month-to-date totals, all from the daily counters. Participant-minutes are participants' durations
 * credited to the day they left (the participant_seconds rollup).
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
      transcriptionMinutes: 0,
      summaries: 0,
    });
  }
  const counters = await db().usageCounter.findMany({ where: { tenantId, day: { gte: from, lte: to } } });
  for (const c of counters) {
    const entry = days.get(utcDay(c.day));
    if (!entry) continue;
    if (c.metric === PARTICIPANT_SECONDS) entry.participantMinutes += minutesOf(c.value);
    const field = METRIC_FIELD[c.metric as UsageMetric];
    if (field) entry[field] += Number(c.value);
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
        transcriptionMinutes: sum.transcriptionMinutes + d.transcriptionMinutes,
        summaries: sum.summaries + d.summaries,
      }),
      {
        apiRequests: 0,
        participantMinutes: 0,
        recordingMinutes: 0,
        streamingMinutes: 0,
        captionMinutes: 0,
        transcriptionMinutes: 0,
        summaries: 0,
      },
    );
  return { from: utcDay(from), to: utcDay(to), data: series, monthToDate };
}
