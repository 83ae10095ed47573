import type { ConsoleRole, Tenant } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { ApiError, notFound } from '@/lib/errors';
import { hashPassword } from '@/lib/console/passwords';
import { findOwnedTenant } from '@/lib/domain/providers';
import { minutesOf, PARTICIPANT_SECONDS, tenantUsage } from '@/lib/domain/usage';
import { sessionsPerDay } from '@/lib/domain/attendance';

/**
 * Console users: a person who signs in to the dashboard, belonging to exactly one tenant or one
 * provider. Every console page and action resolves the signed-in user to an actor here and asks
 * it for permission; the rules themselves are the API's domain functions.
 */
export type ConsoleActor =
  | { kind: 'tenant'; userId: string; email: string; role: ConsoleRole; tenant: Tenant }
  | { kind: 'provider'; userId: string; email: string; role: ConsoleRole; providerId: string; providerName: string };

export async function createConsoleUser(
  input: { email: string; password: string; name?: string; role: ConsoleRole; tenantId?: string; providerId?: string },
  { tx }: { tx: Tx },
) {
  if (!!input.tenantId === !!input.providerId)
    throw new ApiError('VALIDATION_FAILED', 'A console user belongs to one tenant or one provider.');
  return tx.user.create({
    data: {
      email: input.email.toLowerCase(),
      name: input.name,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      tenantId: input.tenantId,
      providerId: input.providerId,
    },
  });
}

/** The actor for a signed-in user id, read fresh on every request (role changes apply at once). */
export async function consoleActor(userId: string): Promise<ConsoleActor | null> {
  const user = await db().user.findUnique({ where: { id: userId }, include: { tenant: true, provider: true } });
  if (!user) return null;
  if (user.tenant) return { kind: 'tenant', userId: user.id, email: user.email, role: user.role, tenant: user.tenant };
  if (user.provider)
    return {
      kind: 'provider',
      userId: user.id,
      email: user.email,
      role: user.role,
      providerId: user.provider.id,
      providerName: user.provider.name,
    };
  return null;
}

/** Viewers read; owners and admins change things. */
export function canManage(actor: ConsoleActor): boolean {
  return actor.role === 'OWNER' || actor.role === 'ADMIN';
}

export function assertCanManage(actor: ConsoleActor): void {
  if (!canManage(actor))
    throw new ApiError('FORBIDDEN', `Your role (${actor.role.toLowerCase()}) can view this but not change it.`);
}

export function tenantOf(actor: ConsoleActor): Tenant {
  if (actor.kind !== 'tenant') throw notFound('Tenant');
  return actor.tenant;
}

/** The reseller behind a console user; a tenant user asking for reseller pages gets 404. */
export function providerOf(actor: ConsoleActor): Extract<ConsoleActor, { kind: 'provider' }> {
  if (actor.kind !== 'provider') throw notFound('Tenant');
  return actor;
}

/** A reseller's console acts on a tenant only if its provider owns it; anything else is 404. */
export async function ownedTenantOf(actor: ConsoleActor, tenantId: string): Promise<Tenant> {
  return findOwnedTenant(providerOf(actor).providerId, tenantId);
}

/** What the overview shows: the room and participant counts right now, and 30 days of usage and sessions started. */
export async function tenantOverview(tenant: Tenant, now = new Date()) {
  const [liveRooms, participantsNow, usage, webhooks, sessions] = await Promise.all([
    db().room.count({ where: { tenantId: tenant.id, status: 'ACTIVE' } }),
    db().participant.count({ where: { tenantId: tenant.id, connectionState: 'CONNECTED' } }),
    tenantUsage(tenant.id, {}, now),
    webhookSuccessByDay(tenant.id, new Date(now.getTime() - 29 * 86_400_000)),
    sessionsPerDay(tenant.id, 31, now),
  ]);
  const sessionsOn = new Map(sessions.map((d) => [d.day, d.sessions]));
  const days = usage.data.map((d) => {
    const w = webhooks.get(d.day);
    const finished = (w?.delivered ?? 0) + (w?.failed ?? 0);
    return {
      day: d.day,
      participantMinutes: d.participantMinutes,
      apiRequests: d.apiRequests,
      sessions: sessionsOn.get(d.day) ?? 0,
      webhookSuccessRate: finished ? Math.round((1000 * (w?.delivered ?? 0)) / finished) / 10 : null,
    };
  });
  return { liveRooms, participantsNow, days, monthToDate: usage.monthToDate };
}

/** Deliveries finished per day of their creation, from the daily rollups (lib/domain/usage.ts). */
async function webhookSuccessByDay(tenantId: string, from: Date) {
  const rows = await db().usageCounter.findMany({
    where: { tenantId, day: { gte: from }, metric: { in: ['webhooks_delivered', 'webhooks_failed'] } },
  });
  const byDay = new Map<string, { delivered: number; failed: number }>();
  for (const r of rows) {
    const day = r.day.toISOString().slice(0, 10);
    const counts = byDay.get(day) ?? { delivered: 0, failed: 0 };
    counts[r.metric === 'webhooks_delivered' ? 'delivered' : 'failed'] += Number(r.value);
    byDay.set(day, counts);
  }
  return byDay;
}

/** The events of one room, newest first (Event.roomId is the room id in a room-scoped event's data). */
export async function roomEvents(tenantId: string, roomId: string, take = 50) {
  const events = await db().event.findMany({
    where: { tenantId, roomId },
    orderBy: { occurredAt: 'desc' },
    take,
  });
  return events.map((e) => ({ id: e.id, name: e.name, occurredAt: e.occurredAt.toISOString() }));
}

/**
 * Everyone who was in a room, whatever their state now (left, removed, still connected), for the
 * console's room page: their role and state, first join and last leave over all of the room's
 * sessions (from the session connections, else the participant's own times), and the time they
 * were connected. People who never got in (invited, waiting, refused) are left out.
 */
export async function roomPeople(tenantId: string, roomId: string, take = 500, now = new Date()) {
  const [participants, connections] = await Promise.all([
    db().participant.findMany({
      where: { tenantId, roomId },
      select: {
        id: true,
        displayName: true,
        externalUserId: true,
        role: true,
        connectionState: true,
        joinedAt: true,
        leftAt: true,
      },
      orderBy: { createdAt: 'asc' },
      take,
    }),
    db().sessionConnection.findMany({
      where: { tenantId, roomId, joinedAt: { not: null } },
      select: { participantId: true, joinedAt: true, leftAt: true },
      orderBy: { joinedAt: 'asc' },
    }),
  ]);
  const byParticipant = new Map<string, { joinedAt: Date; leftAt: Date | null }[]>();
  for (const c of connections) {
    const intervals = byParticipant.get(c.participantId) ?? [];
    intervals.push({ joinedAt: c.joinedAt!, leftAt: c.leftAt });
    byParticipant.set(c.participantId, intervals);
  }
  return participants
    .map((p) => {
      const own = byParticipant.get(p.id) ?? [];
      const intervals = own.length ? own : p.joinedAt ? [{ joinedAt: p.joinedAt, leftAt: p.leftAt }] : [];
      if (!intervals.length) return null;
      const open = intervals.some((i) => !i.leftAt);
      return {
        id: p.id,
        displayName: p.displayName,
        externalUserId: p.externalUserId,
        role: p.role,
        connectionState: p.connectionState,
        firstJoinedAt: intervals[0].joinedAt,
        lastLeftAt: open ? null : new Date(Math.max(...intervals.map((i) => i.leftAt?.getTime() ?? 0))),
        connectedSeconds: connectedSeconds(intervals, now),
      };
    })
    .filter((p) => p !== null)
    .sort((a, b) => a.firstJoinedAt.getTime() - b.firstJoinedAt.getTime());
}

/** Seconds covered by the intervals (sorted by start; overlaps counted once). */
function connectedSeconds(intervals: { joinedAt: Date; leftAt: Date | null }[], now: Date) {
  let total = 0;
  let reach = 0;
  for (const { joinedAt, leftAt } of intervals) {
    const start = Math.max(joinedAt.getTime(), reach);
    const end = (leftAt ?? now).getTime();
    if (end > start) total += end - start;
    reach = Math.max(reach, end);
  }
  return Math.round(total / 1000);
}

/** The reseller's tenants table: each tenant with this month's participant-minutes and API requests. */
export async function resellerTenants(providerId: string, now = new Date()) {
  const tenants = await db().tenant.findMany({ where: { providerId }, orderBy: { createdAt: 'desc' }, take: 200 });
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const ids = tenants.map((t) => t.id);
  const totals = ids.length
    ? await db().$queryRaw<{ tenantId: string; metric: string; value: number }[]>`
          SELECT "tenantId", metric, sum(value)::float AS value FROM "UsageCounter"
          WHERE "tenantId" = ANY(${ids}) AND day >= ${monthStart} AND metric IN ('api_requests', ${PARTICIPANT_SECONDS})
          GROUP BY 1, 2`
    : [];
  const minutesBy = new Map(
    totals.filter((m) => m.metric === PARTICIPANT_SECONDS).map((m) => [m.tenantId, minutesOf(m.value)]),
  );
  const requestsBy = new Map(totals.filter((r) => r.metric === 'api_requests').map((r) => [r.tenantId, r.value]));
  return tenants.map((t) => ({
    tenant: t,
    participantMinutes: minutesBy.get(t.id) ?? 0,
    apiRequests: requestsBy.get(t.id) ?? 0,
  }));
}
