import { db, type Tx } from '@/lib/db';
import { emitEvent } from '@/lib/events/outbox';
import { lockRoom } from '@/lib/domain/room-lock';
import type { Participant, Room, RoomSession, SessionConnection } from '@/lib/generated/prisma/client';
import { secondsBetween } from '@/lib/domain/time';

/**
 * Room sessions and attendance, filled from the media layer's room and participant webhooks.
 *
 * A session is one period in which the room is live: it starts at the earliest of room_started and
 * the first connection, and ends when the room ends (finishRoom). Each media connection of a
 * participant is one SessionConnection row keyed by the media layer's participant sid (a reconnect
 * gets a new sid, so a new interval), which makes every event commutative:
 *  - a duplicate join or left (same or new webhook id) meets the same row and changes nothing;
 *  - a left that arrives before its join creates the row closed, and the join only fills joinedAt;
 *  - a join that arrives after its session ended lands in that session (by its joinedAt) closed at the end;
 *  - a room that ends with people connected closes their intervals at the end time (closedBy ROOM_ENDED),
 *    and a participant_left reported later with an earlier time corrects it.
 * Presence ("who is connected now") is the set of open connections of open sessions.
 */

type Interval = { joinedAt: Date; leftAt: Date | null };

const LEFT = 'LEFT';
const ROOM_ENDED = 'ROOM_ENDED';

/**
 * The session an event at time t belongs to: a closed session that covers t, else the open one
 * (moved earlier if t precedes its start), else a new one — unless the room ended at or before t
 * (a straggler after the end: nothing to record).
 */
async function sessionAt(room: Room, t: Date, { tx }: { tx: Tx }): Promise<RoomSession | null> {
  const closed = await tx.roomSession.findFirst({
    where: { roomId: room.id, startedAt: { lte: t }, endedAt: { gte: t } },
    orderBy: { startedAt: 'desc' },
  });
  if (closed) return closed;
  const open = await tx.roomSession.findFirst({
    where: { roomId: room.id, endedAt: null },
    orderBy: { startedAt: 'desc' },
  });
  if (open) {
    if (t < open.startedAt) return tx.roomSession.update({ where: { id: open.id }, data: { startedAt: t } });
    return open;
  }
  if (room.status === 'ENDED' && room.endedAt && t >= room.endedAt) return null;
  return tx.roomSession.create({ data: { tenantId: room.tenantId, roomId: room.id, startedAt: t } });
}

/** room_started: opens the room's session (or moves an open one's start earlier). */
export async function onRoomStarted(room: Room, at: Date, { tx }: { tx: Tx }) {
  await lockRoom({ tx, roomId: room.id });
  await sessionAt(room, at, { tx });
}

interface ConnectionEvent {
  kind: 'joined' | 'left';
  /** The media layer's participant sid of this connection (null if it sent none). */
  sid: string | null;
  /** When this connection joined, as the media layer reports it (both joined and left carry it). */
  joinedAt: Date | null;
  /** The webhook's createdAt. */
  at: Date;
}

/**
 * participant_joined / participant_left. Returns whether the participant is connected now (has an
 * open connection in an open session) once the event is applied.
 */
export async function onConnection({
  tx,
  room,
  participant,
  event: e,
}: {
  tx: Tx;
  room: Room;
  participant: Participant;
  event: ConnectionEvent;
}): Promise<{ connected: boolean; continued: boolean }> {
  await lockRoom({ tx, roomId: room.id });
  const joinedAt = e.kind === 'joined' ? (e.joinedAt ?? e.at) : e.joinedAt;
  let existing: SessionConnection | null = null;
  let key = e.sid ? `sid:${e.sid}` : joinedAt ? `joined:${joinedAt.getTime()}` : null;
  if (key)
    existing = await tx.sessionConnection.findUnique({
      where: { participantId_connectionKey: { participantId: participant.id, connectionKey: key } },
    });
  else {
    // A left with neither sid nor join time: it closes the participant's latest open connection.
    existing = await tx.sessionConnection.findFirst({
      where: { participantId: participant.id, leftAt: null },
      orderBy: { joinedAt: 'desc' },
    });
    key = existing?.connectionKey ?? `left:${e.at.getTime()}`;
  }

  // A join reported for a connection already open: the same connection in another room (a move
  // to or from a breakout) or the same webhook delivered again.
  const continued = e.kind === 'joined' && !!existing?.joinedAt && !existing.leftAt;
  let touched: string | null = null;
  if (!existing) {
    const session = await sessionAt(room, joinedAt ?? e.at, { tx });
    if (session) {
      const end = session.endedAt;
      const left = e.kind === 'left' ? (end && e.at > end ? end : e.at) : end;
      await tx.sessionConnection.create({
        data: {
          sessionId: session.id,
          tenantId: room.tenantId,
          roomId: room.id,
          participantId: participant.id,
          connectionKey: key,
          joinedAt,
          leftAt: left,
          closedBy: e.kind === 'left' ? LEFT : end ? ROOM_ENDED : null,
        },
      });
      touched = session.id;
    }
  } else {
    const data: { joinedAt?: Date; leftAt?: Date; closedBy?: string } = {};
    if (!existing.joinedAt && joinedAt) data.joinedAt = joinedAt;
    if (e.kind === 'left') {
      // A first left closes; a left reported after the room's end closed it corrects it to the earlier time.
      if (!existing.leftAt) Object.assign(data, { leftAt: e.at, closedBy: LEFT });
      else if (existing.closedBy === ROOM_ENDED && e.at < existing.leftAt)
        Object.assign(data, { leftAt: e.at, closedBy: LEFT });
    }
    if (Object.keys(data).length > 0) {
      await tx.sessionConnection.update({ where: { id: existing.id }, data });
      touched = existing.sessionId;
    }
  }
  if (touched) await refreshSummary(touched, { tx });
  return { connected: await isConnected(participant.id, { tx }), continued };
}

async function isConnected(participantId: string, { tx }: { tx: Tx }): Promise<boolean> {
  const open = await tx.sessionConnection.count({
    where: { participantId, joinedAt: { not: null }, leftAt: null, session: { endedAt: null } },
  });
  return open > 0;
}

/** Connected seconds of a participant over all its sessions (overlapping connections counted once). */
export async function connectedSeconds(participantId: string, now: Date, { tx }: { tx: Tx }): Promise<number> {
  const rows = await tx.sessionConnection.findMany({ where: { participantId, joinedAt: { not: null } } });
  return unionSeconds(
    rows.map((r) => ({ joinedAt: r.joinedAt!, leftAt: r.leftAt })),
    now,
  );
}

/**
 * Closes a participant's open connections at `at` (the lifecycle's reconciliation found it gone).
 * Locks the room first, as the webhook path and finishRoom do: one lock order (room, connections,
 * session, participant) so the two cannot deadlock. Call it before updating the participant.
 */
export async function closeConnections({
  tx,
  roomId,
  participantId,
  at,
}: {
  tx: Tx;
  roomId: string;
  participantId: string;
  at: Date;
}) {
  await lockRoom({ tx, roomId });
  const open = await tx.sessionConnection.findMany({ where: { participantId, leftAt: null } });
  for (const c of open)
    await tx.sessionConnection.update({ where: { id: c.id }, data: { leftAt: at, closedBy: LEFT } });
  for (const sessionId of new Set(open.map((c) => c.sessionId))) await refreshSummary(sessionId, { tx });
}

/**
 * The room ended at `now` (called inside finishRoom's transaction): the open session ends, its
 * open connections close at the end time, and room.session.ended carries the summary.
 */
export async function endSession(room: Room, now: Date, { tx }: { tx: Tx }) {
  const open = await tx.roomSession.findMany({ where: { roomId: room.id, endedAt: null } });
  for (const session of open) {
    const endedAt = now < session.startedAt ? session.startedAt : now;
    await tx.sessionConnection.updateMany({
      where: { sessionId: session.id, leftAt: null },
      data: { leftAt: endedAt, closedBy: ROOM_ENDED },
    });
    const duration = secondsBetween(session.startedAt, endedAt);
    await tx.roomSession.update({ where: { id: session.id }, data: { endedAt, duration } });
    const summary = await refreshSummary(session.id, { tx });
    await emitEvent({
      tx,
      tenantId: room.tenantId,
      name: 'room.session.ended',
      data: {
        sessionId: session.id,
        roomId: room.id,
        startedAt: session.startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        duration,
        peakParticipants: summary.peakParticipants,
        uniqueAttendees: summary.uniqueAttendees,
      },
    });
  }
}

async function refreshSummary(sessionId: string, { tx }: { tx: Tx }) {
  const rows = await tx.sessionConnection.findMany({
    where: { sessionId, joinedAt: { not: null } },
    select: { participantId: true, joinedAt: true, leftAt: true },
  });
  const summary = {
    peakParticipants: peak(
      rows.map((r) => ({ participantId: r.participantId, joinedAt: r.joinedAt!, leftAt: r.leftAt })),
    ),
    uniqueAttendees: new Set(rows.map((r) => r.participantId)).size,
  };
  await tx.roomSession.update({ where: { id: sessionId }, data: summary });
  return summary;
}

/** Most participants connected at once (a participant with overlapping connections counts once). */
export function peak(rows: { participantId: string; joinedAt: Date; leftAt: Date | null }[]): number {
  const points: { t: number; delta: 1 | -1; who: string }[] = [];
  for (const r of rows) {
    points.push({ t: r.joinedAt.getTime(), delta: 1, who: r.participantId });
    if (r.leftAt) points.push({ t: r.leftAt.getTime(), delta: -1, who: r.participantId });
  }
  // At the same instant leaves go first: a reconnect at the second of the drop is not two people.
  points.sort((a, b) => a.t - b.t || a.delta - b.delta);
  const open = new Map<string, number>();
  let best = 0;
  for (const p of points) {
    const n = (open.get(p.who) ?? 0) + p.delta;
    if (n <= 0) open.delete(p.who);
    else open.set(p.who, n);
    best = Math.max(best, open.size);
  }
  return best;
}

/** Seconds covered by the union of the intervals; open ones run until `now`. */
export function unionSeconds(intervals: Interval[], now: Date): number {
  const spans = intervals
    .map((i) => [i.joinedAt.getTime(), (i.leftAt ?? now).getTime()] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const [a, b] of spans) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else end = Math.max(end, b);
  }
  if (end > start) total += end - start;
  return Math.round(total / 1000);
}

/** The room's session in progress, if any: what a recording or a transcript made now belongs to. */
export async function openSessionId(roomId: string, { tx = db() }: { tx?: Tx } = {}) {
  const open = await tx.roomSession.findFirst({
    where: { roomId, endedAt: null },
    orderBy: { startedAt: 'desc' },
    select: { id: true },
  });
  return open?.id ?? null;
}
