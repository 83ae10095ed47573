import { db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/errors';
import { byTime, pageArgs, toPage, type PageQuery } from '@/lib/domain/pagination';
import type { RoomSession, SessionConnection, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { toCsv } from '@/lib/domain/csv';
import { iso, secondsBetween } from '@/lib/domain/time';
import { unionSeconds } from '@/lib/domain/sessions';
import type {
  attendanceResponse,
  presenceRoomResponse,
  sessionResponse,
  sessionWithAttendanceResponse,
} from '@/lib/domain/sessions.schemas';

/**
 * Sessions and attendance as the API and the console read them (lib/domain/sessions.ts writes
 * them from the media layer's webhooks): lists, one session with its attendance, presence, the
 * attendance CSV and sessions per day.
 */

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

/** Sessions started per UTC day over the last `days` days (console overview), from the daily rollup (lib/domain/usage.ts). */
export async function sessionsPerDay(tenantId: string, days = 14, now = new Date()) {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db().usageCounter.findMany({
    where: { tenantId, metric: 'sessions_started', day: { gte: since } },
    select: { day: true, value: true },
  });
  const counts = new Map<string, number>();
  for (let i = 0; i < days; i++) counts.set(new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10), 0);
  for (const r of rows) {
    const day = r.day.toISOString().slice(0, 10);
    if (counts.has(day)) counts.set(day, Number(r.value));
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
