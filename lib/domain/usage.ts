import { db } from '@/lib/db';

/**
 * Daily usage counters per tenant. API requests are counted in memory and flushed in batches
 * (one upsert per tenant and metric every few seconds) so counting costs no query per request.
 * A crash loses at most one flush interval of request counts; minutes are derived from rows.
 */
export type UsageMetric = 'api_requests' | 'participant_minutes' | 'recording_minutes' | 'streaming_minutes' | 'caption_minutes';

const pending = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;
const FLUSH_INTERVAL_MS = 5_000;

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function recordApiRequest(tenantId: string, at = new Date()): void {
  addUsage(tenantId, 'api_requests', 1, at);
}

export function addUsage(tenantId: string, metric: UsageMetric, amount: number, at = new Date()): void {
  if (amount <= 0) return;
  const key = `${tenantId}|${utcDay(at)}|${metric}`;
  pending.set(key, (pending.get(key) ?? 0) + amount);
  timer ??= setTimeout(() => void flushUsage(), FLUSH_INTERVAL_MS).unref();
}

export async function flushUsage(): Promise<void> {
  timer = undefined;
  const batch = [...pending.entries()];
  pending.clear();
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
