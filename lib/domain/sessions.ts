import { db, type Tx } from '@/lib/db';
import { ApiError, notFound } from '@/lib/errors';
import { emitEvent } from '@/lib/events/outbox';
import { byTime, pageArgs, toPage, type PageQuery } from '@/lib/domain/pagination';
import type { Participant, Room, RoomSession, SessionConnection, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { toCsv } from '@/lib/domain/csv';
import { iso, secondsBetween } from '@/lib/domain/time';
import type {
  attendanceResponse,
  presenceRoomResponse,
  sessionResponse,
  sessionWithAttendanceResponse,
} from '@/lib/domain/sessions.schemas';

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

async function lockRoom(roomId: string, { tx }: { tx: Tx }) {
  await tx.$queryRaw`SELECT id FROM "Room" WHERE id = ${roomId} FOR UPDATE`;
}

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
  await lockRoom(room.id, { tx });
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
  await lockRoom(room.id, { tx });
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
  await lockRoom(roomId, { tx });
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
function unionSeconds(intervals: Interval[], now: Date): number {
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

// ───────────────────────────── reads ─────────────────────────────

type SessionView = z.input<typeof sessionResponse>;
type AttendanceView = z.input<typeof attendanceResponse>;

function sessionView(s: RoomSession, now = new Date()): SessionView {
  return {
    id: s.id,
    roomId: s.roomId,
    status: s.endedAt ? 'ENDED' : 'LIVE',
    startedAt: s.startedAt.toISOString(),
    endedAt: iso(s.endedAt),
    duration: s.endedAt ? (s.duration ?? 0) : secondsBetween(s.startedAt, now),
    peakParticipants: s.peakParticipants,
    uniqueAttendees: s.uniqueAttendees,
  };
}

/** Sessions newest first by start. */
const LATEST_STARTED_FIRST = byTime('startedAt', 'desc');

async function sessionPage(where: object, page: PageQuery) {
  const args = pageArgs(page, LATEST_STARTED_FIRST);
  const rows = await db().roomSession.findMany({
    where: { ...where, ...args.where },
    orderBy: args.orderBy,
    take: args.take,
  });
  const now = new Date();
  return toPage(rows, page, (s) => sessionView(s, now), { order: LATEST_STARTED_FIRST });
}

export async function listRoomSessions(tenant: Tenant, roomId: string, page: PageQuery) {
  const room = await db().room.findFirst({ where: { id: roomId, tenantId: tenant.id }, select: { id: true } });
  if (!room) throw notFound('Room');
  return sessionPage({ tenantId: tenant.id, roomId }, page);
}

/** Sessions across the tenant that overlap [from, to): started before `to` and not ended before `from`. */
export async function listSessions(
  tenant: Tenant,
  query: PageQuery & { from?: Date; to?: Date; roomId?: string; status?: 'LIVE' | 'ENDED' },
) {
  if (query.from && query.to && query.from >= query.to) {
    throw new ApiError('VALIDATION_FAILED', 'from must be before to.', [
      { field: 'from', message: 'must be before to' },
    ]);
  }
  return sessionPage(
    {
      tenantId: tenant.id,
      ...(query.roomId ? { roomId: query.roomId } : {}),
      ...(query.status === 'LIVE' ? { endedAt: null } : query.status === 'ENDED' ? { endedAt: { not: null } } : {}),
      AND: [
        ...(query.to ? [{ startedAt: { lt: query.to } }] : []),
        ...(query.from ? [{ OR: [{ endedAt: null }, { endedAt: { gte: query.from } }] }] : []),
      ],
    },
    query,
  );
}

export async function getSession(
  tenant: Tenant,
  sessionId: string,
): Promise<z.input<typeof sessionWithAttendanceResponse>> {
  const session = await db().roomSession.findFirst({
    where: { id: sessionId, tenantId: tenant.id },
    include: { connections: true },
  });
  if (!session) throw notFound('Session');
  const now = new Date();
  return { ...sessionView(session, now), attendance: await attendance(session.connections, session.endedAt ?? now) };
}

async function attendance(connections: SessionConnection[], until: Date): Promise<AttendanceView[]> {
  const known = connections.filter((c) => c.joinedAt);
  const byParticipant = new Map<string, SessionConnection[]>();
  for (const c of known) byParticipant.set(c.participantId, [...(byParticipant.get(c.participantId) ?? []), c]);
  const participants = await db().participant.findMany({ where: { id: { in: [...byParticipant.keys()] } } });
  const rows = participants.map((p) => {
    const intervals = byParticipant
      .get(p.id)!
      .map((c) => ({ joinedAt: c.joinedAt!, leftAt: c.leftAt }))
      .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime());
    const open = intervals.some((i) => !i.leftAt);
    return {
      participantId: p.id,
      externalUserId: p.externalUserId,
      displayName: p.displayName,
      role: p.role,
      connected: open,
      firstJoinedAt: intervals[0].joinedAt.toISOString(),
      lastLeftAt: open ? null : new Date(Math.max(...intervals.map((i) => i.leftAt!.getTime()))).toISOString(),
      totalSeconds: unionSeconds(intervals, until),
      intervals: intervals.map((i) => ({
        joinedAt: i.joinedAt.toISOString(),
        leftAt: iso(i.leftAt),
        seconds: unionSeconds([i], until),
      })),
    };
  });
  return rows.sort(
    (a, b) => a.firstJoinedAt.localeCompare(b.firstJoinedAt) || a.externalUserId.localeCompare(b.externalUserId),
  );
}

// ───────────────────────────── presence ─────────────────────────────

type PresenceRoom = z.input<typeof presenceRoomResponse>;

async function presenceOf(tenantId: string, roomIds: string[] | null): Promise<Map<string, PresenceRoom>> {
  const open = await db().sessionConnection.findMany({
    where: {
      tenantId,
      joinedAt: { not: null },
      leftAt: null,
      session: { endedAt: null },
      ...(roomIds ? { roomId: { in: roomIds } } : {}),
    },
    orderBy: { joinedAt: 'asc' },
  });
  const participants = new Map(
    (await db().participant.findMany({ where: { id: { in: [...new Set(open.map((c) => c.participantId))] } } })).map(
      (p) => [p.id, p],
    ),
  );
  const rooms = new Map<string, PresenceRoom>();
  for (const c of open) {
    const p = participants.get(c.participantId);
    if (!p) continue;
    const room = rooms.get(c.roomId) ?? { roomId: c.roomId, sessionId: c.sessionId, participants: [] };
    if (!room.participants.some((x) => x.participantId === p.id)) {
      room.participants.push({
        participantId: p.id,
        externalUserId: p.externalUserId,
        displayName: p.displayName,
        role: p.role,
        connectedSince: c.joinedAt!.toISOString(),
      });
    }
    rooms.set(c.roomId, room);
  }
  return rooms;
}

/** Who is connected now in one room. */
export async function roomPresence(tenant: Tenant, roomId: string): Promise<PresenceRoom> {
  const room = await db().room.findFirst({ where: { id: roomId, tenantId: tenant.id }, select: { id: true } });
  if (!room) throw notFound('Room');
  const session = await db().roomSession.findFirst({
    where: { roomId, endedAt: null },
    orderBy: { startedAt: 'desc' },
    select: { id: true },
  });
  return (
    (await presenceOf(tenant.id, [roomId])).get(roomId) ?? { roomId, sessionId: session?.id ?? null, participants: [] }
  );
}

/** Who is connected now across the tenant: rooms with anyone connected, most recently started session first. */
export async function tenantPresence(tenant: Tenant, page: PageQuery) {
  const args = pageArgs(page, LATEST_STARTED_FIRST);
  const sessions = await db().roomSession.findMany({
    where: {
      tenantId: tenant.id,
      endedAt: null,
      connections: { some: { joinedAt: { not: null }, leftAt: null } },
      ...args.where,
    },
    orderBy: args.orderBy,
    take: args.take,
  });
  const visible = toPage(sessions, page, (s) => s, { order: LATEST_STARTED_FIRST });
  const byRoom = await presenceOf(
    tenant.id,
    visible.data.map((s) => s.roomId),
  );
  return {
    data: visible.data.map((s) => byRoom.get(s.roomId)).filter((r): r is PresenceRoom => !!r),
    nextCursor: visible.nextCursor,
  };
}

/** Sessions started per UTC day over the last `days` days (console overview). */
export async function sessionsPerDay(tenantId: string, days = 14, now = new Date()) {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db().roomSession.findMany({
    where: { tenantId, startedAt: { gte: since } },
    select: { startedAt: true },
  });
  const counts = new Map<string, number>();
  for (let i = 0; i < days; i++) counts.set(new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10), 0);
  for (const r of rows) {
    const day = r.startedAt.toISOString().slice(0, 10);
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return [...counts].map(([day, sessions]) => ({ day, sessions }));
}

/** The attendance of one session as CSV (console download): one row per user. */
export async function attendanceCsv(tenant: Tenant, sessionId: string): Promise<string> {
  const session = await getSession(tenant, sessionId);
  return toCsv([
    [
      'sessionId',
      'roomId',
      'externalUserId',
      'displayName',
      'role',
      'firstJoinedAt',
      'lastLeftAt',
      'totalSeconds',
      'intervals',
    ],
    ...session.attendance.map((a) => [
      session.id,
      session.roomId,
      a.externalUserId,
      a.displayName,
      a.role,
      a.firstJoinedAt,
      a.lastLeftAt,
      a.totalSeconds,
      a.intervals.map((i) => `${i.joinedAt}/${i.leftAt ?? ''}`).join(' '),
    ]),
  ]);
}
