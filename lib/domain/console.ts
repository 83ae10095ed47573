import type { ConsoleRole, Tenant } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { ApiError, notFound } from '@/lib/errors';
import { hashPassword } from '@/lib/console/passwords';
import { findOwnedTenant } from '@/lib/domain/providers';
import { tenantUsage } from '@/lib/domain/usage';
import { sessionsPerDay } from '@/lib/domain/sessions';

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

async function webhookSuccessByDay(tenantId: string, from: Date) {
  const rows = await db().$queryRaw<{ day: Date; delivered: number; failed: number }[]>`
    SELECT date_trunc('day', "createdAt")::date AS day,
           count(*) FILTER (WHERE status = 'DELIVERED')::int AS delivered,
           count(*) FILTER (WHERE status = 'FAILED')::int AS failed
    FROM "WebhookDelivery" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${from}
    GROUP BY 1`;
  return new Map(rows.map((r) => [r.day.toISOString().slice(0, 10), r]));
}

/** The events of one room, newest first (the room id is in every room-scoped event's data). */
export async function roomEvents(tenantId: string, roomId: string, take = 50) {
  const events = await db().event.findMany({
    where: { tenantId, data: { path: ['roomId'], equals: roomId } },
    orderBy: { occurredAt: 'desc' },
    take,
  });
  return events.map((e) => ({ id: e.id, name: e.name, occurredAt: e.occurredAt.toISOString() }));
}

/** The reseller's tenants table: each tenant with this month's participant-minutes and API requests. */
export async function resellerTenants(providerId: string, now = new Date()) {
  const tenants = await db().tenant.findMany({ where: { providerId }, orderBy: { createdAt: 'desc' }, take: 200 });
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const ids = tenants.map((t) => t.id);
  const [minutes, requests] = ids.length
    ? await Promise.all([
        db().$queryRaw<{ tenantId: string; minutes: number }[]>`
          SELECT "tenantId", (sum(duration) / 60.0)::float AS minutes FROM "Participant"
          WHERE "tenantId" = ANY(${ids}) AND "leftAt" >= ${monthStart} AND duration IS NOT NULL GROUP BY 1`,
        db().$queryRaw<{ tenantId: string; value: number }[]>`
          SELECT "tenantId", sum(value)::float AS value FROM "UsageCounter"
          WHERE "tenantId" = ANY(${ids}) AND metric = 'api_requests' AND day >= ${monthStart} GROUP BY 1`,
      ])
    : [[], []];
  const minutesBy = new Map(minutes.map((m) => [m.tenantId, Math.round(m.minutes * 10) / 10]));
  const requestsBy = new Map(requests.map((r) => [r.tenantId, r.value]));
  return tenants.map((t) => ({
    tenant: t,
    participantMinutes: minutesBy.get(t.id) ?? 0,
    apiRequests: requestsBy.get(t.id) ?? 0,
  }));
}
