import type { Tenant } from '@/lib/generated/prisma/client';
import { db, Prisma, type Tx } from '@/lib/db';
import { ApiError } from '@/lib/errors';
import { log } from '@/lib/log';
import { isMediaNotFound } from '@/lib/media';
import { mediaFor } from '@/lib/domain/media';
import { resolveLimits } from '@/lib/domain/plans';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { emitEvent } from '@/lib/events/outbox';

/**
 * The limits recordings and live streams share — both are room-composite egresses in the media
 * layer, each an encoder running there:
 *
 * - concurrentRecordings / concurrentStreams: egresses of a kind running at once per tenant
 *   (STARTING, ACTIVE or STOPPING: the media layer still runs them);
 * - one recording per room at a time;
 * - recordingMinutesPerMonth / streamingMinutesPerMonth: the month's usage plus the minutes the
 *   running ones have used so far; checked at start, and by the lifecycle job, which stops what is
 *   running once the month's minutes are used up (the row says why; the media layer's
 *   egress_ended brings stream.ended / recording.completed and egress.ended as for any stop).
 *
 * Starts are race-free: each runs in one transaction that holds the tenant's egress lock while it
 * counts, starts the egress and writes the row, and the media layer's egress webhooks for the
 * tenant take the same lock (shared), so a webhook never looks for a row still being written.
 */
export type EgressKind = 'recording' | 'streaming';

/** Statuses of an egress the media layer still runs. */
export const RUNNING_EGRESS = ['STARTING', 'ACTIVE', 'STOPPING'] as const;

/**
 * A stopped egress whose end the media layer never reported (its egress_ended lost: the app or the
 * database was down for all of the webhook's attempts) stops counting against the limits this long
 * after the stop, and its minutes end at the stop: one lost webhook must not hold a tenant's place
 * for ever. (The row stays STOPPING: Convene does not know how it ended.)
 */
const STOP_GRACE_MS = 5 * 60_000;

const KIND = {
  recording: {
    table: 'Recording',
    metric: 'recording_minutes',
    concurrent: 'concurrentRecordings',
    noun: 'recordings',
  },
  streaming: { table: 'Stream', metric: 'streaming_minutes', concurrent: 'concurrentStreams', noun: 'live streams' },
} as const;

const lockKey = (tenantId: string) => Prisma.sql`hashtextextended(${`convene:egress:${tenantId}`}, 0)`;

/** Held by a webhook for the tenant's egresses: it waits for a start in progress to commit its row. */
export async function waitForEgressStarts(tenantId: string, { tx }: { tx: Tx }) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(${lockKey(tenantId)})`;
}

export async function minutesThisMonth(
  tenantId: string,
  metric: string,
  now = new Date(),
  { tx = db() }: { tx?: Tx } = {},
) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const rows = await tx.usageCounter.findMany({ where: { tenantId, metric, day: { gte: monthStart } } });
  return rows.reduce((sum, r) => sum + Number(r.value), 0);
}

type EgressClock = { status: string; startedAt: Date | null; updatedAt: Date };

/** Whether the media layer may still run it: not a stop long past whose end never came. */
const stillRunning = (r: EgressClock, now: Date) =>
  r.status !== 'STOPPING' || now.getTime() - r.updatedAt.getTime() < STOP_GRACE_MS;

/**
 * Minutes used so far by egresses not yet billed (billing comes with their end), each from its
 * start (the media layer's egress_started) to now, or to the stop for one stopped.
 */
const minutesUsed = (rows: EgressClock[], now: Date) =>
  rows.reduce((sum, r) => {
    const until = r.status === 'STOPPING' ? Math.min(now.getTime(), r.updatedAt.getTime()) : now.getTime();
    return sum + (r.startedAt ? Math.max(0, until - r.startedAt.getTime()) / 60_000 : 0);
  }, 0);

/** The egresses of a kind the tenant runs: how many, and the minutes they have used so far. */
async function running(tenantId: string, kind: EgressKind, now: Date, { tx }: { tx: Tx }) {
  const where = { tenantId, status: { in: [...RUNNING_EGRESS] } };
  const select = { status: true, startedAt: true, updatedAt: true } as const;
  const rows =
    kind === 'recording' ? await tx.recording.findMany({ where, select }) : await tx.stream.findMany({ where, select });
  return { count: rows.filter((r) => stillRunning(r, now)).length, minutes: minutesUsed(rows, now) };
}

/**
 * Starts an egress and writes its row as one step, within the tenant's limits: `check` runs first
 * under the lock (rules of the caller's own, e.g. one recording per room), `start` calls the media layer,
 * `save` writes the row. An egress whose row could not be written is stopped again: nothing runs
 * in the media layer without its row.
 */
export async function startEgressWithinLimits<T>({
  tenant,
  kind,
  check,
  start,
  save,
  now = new Date(),
}: {
  tenant: Tenant;
  kind: EgressKind;
  check?: (tx: Tx) => Promise<void>;
  start: () => Promise<{ egressId: string }>;
  save: (egressId: string, tx: Tx) => Promise<T>;
  now?: Date;
}): Promise<T> {
  let started: string | null = null;
  try {
    return await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lockKey(tenant.id)})`;
      await check?.(tx); // the caller's own rule says more (one recording per room: CONFLICT)
      const { count, minutes } = await running(tenant.id, kind, now, { tx });
      // On the transaction's own connection: a start waiting for the lock holds one too.
      const used = (await minutesThisMonth(tenant.id, KIND[kind].metric, now, { tx })) + minutes;
      assertBillableMediaAllowed(tenant, kind, used);
      const limit = resolveLimits(tenant.plan, tenant.entitlementOverrides)[KIND[kind].concurrent];
      if (count >= limit)
        throw new ApiError(
          'PLAN_LIMIT_REACHED',
          `Your plan allows ${limit} ${KIND[kind].noun} at once (${KIND[kind].concurrent}); stop one first.`,
        );
      started = (await start()).egressId;
      return save(started, tx);
    });
  } catch (err) {
    if (started) await stopQuietly(tenant, started, 'its row was not written');
    throw err;
  }
}

async function stopQuietly(tenant: Tenant, egressId: string, why: string) {
  try {
    await mediaFor(tenant).stopEgress(egressId);
    log.warn({ tenantId: tenant.id, egressId, why }, 'egress stopped again');
  } catch (err) {
    if (!isMediaNotFound(err))
      log.error({ tenantId: tenant.id, egressId, err: (err as Error).message }, 'egress not stopped');
  }
}

interface RunningEgress {
  kind: EgressKind;
  id: string;
  tenantId: string;
  roomId: string;
  mediaEgressId: string;
  status: string;
  startedAt: Date | null;
  updatedAt: Date;
}

/**
 * The lifecycle job's check: every tenant whose running recordings (or streams) have used up the
 * month's minutes has them stopped, with the reason on each row. It reads only running rows
 * (partial indexes hold just those), so its cost follows what runs, not the history.
 */
export async function stopEgressOverMonthlyMinutes(now = new Date()): Promise<number> {
  const rows = await db().$queryRaw<RunningEgress[]>`
    SELECT 'streaming' AS kind, id, "tenantId", "roomId", "mediaEgressId", status::text AS status, "startedAt", "updatedAt"
    FROM "Stream" WHERE status IN ('STARTING', 'ACTIVE', 'STOPPING')
    UNION ALL
    SELECT 'recording', id, "tenantId", "roomId", "mediaEgressId", status::text, "startedAt", "updatedAt"
    FROM "Recording" WHERE status IN ('STARTING', 'ACTIVE', 'STOPPING')`;
  const groups = new Map<string, RunningEgress[]>();
  for (const r of rows) {
    const key = `${r.tenantId}|${r.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  let stopped = 0;
  for (const group of groups.values()) {
    const { tenantId, kind } = group[0];
    const tenant = await db().tenant.findUnique({ where: { id: tenantId } });
    if (!tenant) continue;
    const limit = resolveLimits(tenant.plan, tenant.entitlementOverrides)[
      kind === 'recording' ? 'recordingMinutesPerMonth' : 'streamingMinutesPerMonth'
    ];
    if ((await minutesThisMonth(tenantId, KIND[kind].metric, now)) + minutesUsed(group, now) < limit) continue;
    const reason = `Stopped: the plan's ${kind === 'recording' ? 'recordingMinutesPerMonth' : 'streamingMinutesPerMonth'} (${limit}) are used up for this month.`;
    for (const r of group) {
      if (r.status === 'STOPPING') continue;
      if (await stopForQuota(tenant, r, reason, now)) stopped++;
    }
  }
  return stopped;
}

async function stopForQuota(tenant: Tenant, r: RunningEgress, reason: string, now: Date) {
  const running = { id: r.id, status: { in: ['STARTING' as const, 'ACTIVE' as const] } };
  const update = (data: { error: string; status?: 'STOPPING' }) =>
    r.kind === 'streaming'
      ? db().stream.updateMany({ where: running, data })
      : db().recording.updateMany({ where: running, data });
  // The reason first: the media layer's egress_ended may arrive before stopEgress returns.
  await update({ error: reason });
  try {
    await mediaFor(tenant).stopEgress(r.mediaEgressId);
  } catch (err) {
    if (!isMediaNotFound(err)) {
      log.warn(
        { tenantId: tenant.id, egressId: r.mediaEgressId, err: (err as Error).message },
        'over-quota egress not stopped; next run retries',
      );
      return false;
    }
    // The media layer no longer has it: no egress_ended will come, so the row ends here.
    await endLostEgress(r, reason, now);
    return true;
  }
  await update({ error: reason, status: 'STOPPING' });
  log.info({ tenantId: tenant.id, egressId: r.mediaEgressId, kind: r.kind }, 'egress stopped: monthly minutes used up');
  return true;
}

async function endLostEgress(r: RunningEgress, reason: string, now: Date) {
  const error = `${reason} The media layer no longer had the egress.`;
  await db().$transaction(async (tx) => {
    const data = { status: 'FAILED' as const, endedAt: now, error };
    const where = { id: r.id, status: { in: [...RUNNING_EGRESS] } };
    const changed =
      r.kind === 'streaming'
        ? (await tx.stream.updateMany({ where, data })).count
        : (await tx.recording.updateMany({ where, data })).count;
    if (!changed) return;
    if (r.kind === 'streaming')
      await emitEvent({
        tx,
        tenantId: r.tenantId,
        name: 'stream.ended',
        data: { streamId: r.id, roomId: r.roomId, status: 'FAILED', error },
      });
    else
      await emitEvent({
        tx,
        tenantId: r.tenantId,
        name: 'recording.failed',
        data: { recordingId: r.id, roomId: r.roomId, error },
      });
    await emitEvent({
      tx,
      tenantId: r.tenantId,
      name: 'egress.ended',
      data: { roomId: r.roomId, egressId: r.mediaEgressId, status: 'EGRESS_ABORTED' },
    });
  });
}
