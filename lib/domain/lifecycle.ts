import { db } from '@/lib/db';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { mediaFor } from '@/lib/domain/media';
import { finishRoom } from '@/lib/domain/room-end';
import { MediaLayerError } from '@/lib/media';
import { closeConnections } from '@/lib/domain/sessions';
import { pruneChat } from '@/lib/domain/chat';
import { pruneQuality } from '@/lib/domain/quality';
import { runDueTranscripts } from '@/lib/domain/transcripts';
import { pruneLiveTranscripts } from '@/lib/domain/live-transcripts';
import { runDueSummaries } from '@/lib/domain/summaries';
import { stopEgressOverMonthlyMinutes } from '@/lib/domain/recordings-limits';

/**
 * Room lifecycle and housekeeping, run as one queue job (see lib/runtime/jobs.ts) every
 * LIFECYCLE_INTERVAL_SECONDS. Every rule takes `now` so tests can move the clock.
 *
 * - autoEndAt: a room past its autoEndAt is ended (media room deleted, participants disconnected,
 *   ENDED, room.finished relayed).
 * - Empty rooms: an ACTIVE room with nobody connected for the tenant's emptyRoomTimeoutMinutes
 *   (default 10) since the last participant left (or since it started) is ended the same way.
 * - Reconciliation: rooms we think are ACTIVE are compared with the media layer; a room it no
 *   longer has is ended, participants it does not list are disconnected, activeParticipants is
 *   corrected. This repairs drift from lost media-layer webhooks.
 * - Monthly minutes: running recordings and streams of a tenant whose month's minutes are used up
 *   are stopped, with the reason (lib/domain/recordings-limits.ts).
 * - Retention: webhook attempt bodies and expired idempotency records older than RETENTION_DAYS
 *   are pruned in batches of 500 rows, so no long lock is held on hot tables; chat messages older
 *   than RETENTION_DAYS are deleted the same way (lib/domain/chat.ts pruneChat), and so are call-quality
 *   samples and their emptied series (lib/domain/quality.ts pruneQuality). Oldest first, from
 *   an index of what is not pruned yet: a run reads what became due, however long the history. The
 *   batch's ids go in as an array (`id = ANY(ARRAY(...))`), so each row is found by its key: as
 *   `id IN (...)` the planner may hash-join the batch against the whole table.
 */
const BATCH = 500;

async function endBySystem(roomId: string, reason: string, now: Date) {
  const room = await db().room.findUnique({ where: { id: roomId }, include: { tenant: true } });
  if (!room || room.status === 'ENDED') return false;
  try {
    await mediaFor(room.tenant).deleteRoom(room.mediaRoomName);
  } catch (err) {
    log.warn({ roomId, reason, err: (err as Error).message }, 'media room not deleted; will retry');
    return false; // the next run tries again: ending stays idempotent
  }
  const ended = await finishRoom(room.id, now);
  if (ended) log.info({ roomId, tenantId: room.tenantId, reason }, 'room ended automatically');
  return !!ended;
}

// The due-work queries are SQL with their predicates written out (not Prisma's parameters), so
// PostgreSQL matches them to the partial indexes that hold only what may be due (Room_open_autoEndAt_idx,
// Room_active_idx): each run costs what is due, not every room ever made (docs/performance.md).
export async function endDueRooms(now = new Date()): Promise<number> {
  const due = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM "Room" WHERE status <> 'ENDED' AND "autoEndAt" IS NOT NULL AND "autoEndAt" <= ${now} LIMIT ${BATCH}`;
  let ended = 0;
  for (const r of due) if (await endBySystem(r.id, 'autoEndAt', now)) ended++;
  return ended;
}

export async function endEmptyRooms(now = new Date()): Promise<number> {
  const empty = await db().$queryRaw<{ id: string }[]>`
    SELECT r.id FROM "Room" r WHERE r.status = 'ACTIVE'
      AND NOT EXISTS (SELECT 1 FROM "Participant" p WHERE p."roomId" = r.id AND p."connectionState" = 'CONNECTED')
    LIMIT ${BATCH}`;
  if (empty.length === 0) return 0;
  const candidates = await db().room.findMany({
    where: { id: { in: empty.map((r) => r.id) }, status: 'ACTIVE' },
    include: { tenant: { select: { emptyRoomTimeoutMinutes: true } } },
  });
  if (candidates.length === 0) return 0;
  // When each room's last participant left, computed by PostgreSQL (a nested `take: 1` would
  // fetch every participant who ever left the room and keep one).
  const lastLeft = new Map(
    (
      await db().participant.groupBy({
        by: ['roomId'],
        where: { roomId: { in: candidates.map((r) => r.id) }, leftAt: { not: null } },
        _max: { leftAt: true },
      })
    ).map((g) => [g.roomId, g._max.leftAt]),
  );
  let ended = 0;
  for (const room of candidates) {
    const lastActivity = lastLeft.get(room.id) ?? room.startedAt ?? room.updatedAt;
    if (now.getTime() - lastActivity.getTime() >= room.tenant.emptyRoomTimeoutMinutes * 60_000) {
      if (await endBySystem(room.id, 'empty', now)) ended++;
    }
  }
  return ended;
}

export async function reconcileRooms(now = new Date()): Promise<{ ended: number; corrected: number }> {
  const activeIds = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM "Room" WHERE status = 'ACTIVE' LIMIT ${BATCH}`;
  const active = activeIds.length
    ? await db().room.findMany({
        where: { id: { in: activeIds.map((r) => r.id) }, status: 'ACTIVE' },
        include: { tenant: true },
      })
    : [];
  let ended = 0;
  let corrected = 0;
  for (const room of active) {
    const media = mediaFor(room.tenant);
    let present: Set<string>;
    try {
      const rooms = await media.listRooms([room.mediaRoomName]);
      if (rooms.length === 0) {
        if (await finishRoom(room.id, now)) ended++;
        continue;
      }
      present = new Set((await media.listParticipants(room.mediaRoomName)).map((p) => p.identity));
    } catch (err) {
      if (err instanceof MediaLayerError) continue; // media layer down: try again next run
      throw err;
    }
    // Removed or refused people still in the media room (their re-removal on join failed): again.
    const turnedAway = await db().participant.findMany({
      where: { roomId: room.id, connectionState: { in: ['REMOVED', 'DENIED'] }, mediaIdentity: { in: [...present] } },
      select: { mediaIdentity: true },
    });
    for (const p of turnedAway)
      await media.removeParticipant(room.mediaRoomName, p.mediaIdentity).catch((err) => {
        if (!(err instanceof MediaLayerError)) throw err; // not there any more, or down: next run
      });
    const gone = await db().participant.findMany({
      where: {
        roomId: room.id,
        connectionState: 'CONNECTED',
        mediaIdentity: { notIn: [...present] },
        breakoutId: null,
      },
    });
    for (const p of gone) {
      await db().$transaction(async (tx) => {
        // Locks the room first, as the webhook path does.
        await closeConnections({ tx, roomId: room.id, participantId: p.id, at: now });
        await tx.participant.update({ where: { id: p.id }, data: { connectionState: 'DISCONNECTED', leftAt: now } });
      });
    }
    const count = await db().participant.count({ where: { roomId: room.id, connectionState: 'CONNECTED' } });
    if (count !== room.activeParticipants || gone.length > 0) {
      await db().room.update({ where: { id: room.id }, data: { activeParticipants: count } });
      corrected++;
    }
  }
  return { ended, corrected };
}

export async function pruneRetention(
  now = new Date(),
  retentionDays = config().RETENTION_DAYS,
): Promise<{ attempts: number; idempotency: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let attempts = 0;
  for (;;) {
    const n = await db().$executeRaw`
      UPDATE "WebhookAttempt" SET "requestBody" = '', "responseBody" = NULL
      WHERE id = ANY(ARRAY(SELECT id FROM "WebhookAttempt" WHERE "createdAt" < ${cutoff} AND "requestBody" <> ''
                           ORDER BY "createdAt" LIMIT ${BATCH}))`;
    attempts += n;
    if (n < BATCH) break;
  }
  let idempotency = 0;
  for (;;) {
    const n = await db().$executeRaw`
      DELETE FROM "IdempotencyRecord" WHERE id = ANY(ARRAY(SELECT id FROM "IdempotencyRecord" WHERE "expiresAt" < ${now} LIMIT ${BATCH}))`;
    idempotency += n;
    if (n < BATCH) break;
  }
  return { attempts, idempotency };
}

export async function runLifecycle(now = new Date()) {
  // Transcripts and summaries whose job never ran, whose retry is due, or whose worker died.
  await runDueTranscripts(now);
  await runDueSummaries(now);
  const autoEnded = await endDueRooms(now);
  const emptyEnded = await endEmptyRooms(now);
  const reconciled = await reconcileRooms(now);
  const overQuotaStopped = await stopEgressOverMonthlyMinutes(now);
  const pruned = await pruneRetention(now);
  const chatPruned = await pruneChat(now);
  const liveTranscriptsPruned = await pruneLiveTranscripts(now);
  const qualityPruned = await pruneQuality(now);
  return {
    autoEnded,
    emptyEnded,
    reconciled,
    overQuotaStopped,
    pruned,
    chatPruned,
    qualityPruned,
    liveTranscriptsPruned,
  };
}
