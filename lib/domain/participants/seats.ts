import type { Participant, Room, Tenant } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { ApiError } from '@/lib/errors';
import { resolveLimits } from '@/lib/domain/plans';
import { isModeratorRole, isTurnedAway } from '@/lib/domain/participants/roles';

/** A participant handed a token holds a seat this long without connecting; then it is freed. */
const UNCONNECTED_SEAT_HOLD_MS = 10 * 60 * 1000;

/** Tokens issued after this instant hold a seat (the seat rule, convene_holds_seat). */
export const holdSince = (now: Date) => new Date(now.getTime() - UNCONNECTED_SEAT_HOLD_MS);

/** A room's seats: its own maximum within the tenant's plan. */
export function seatCap(tenant: Tenant, room: Room): number {
  return Math.min(room.maxParticipants, planSeatCap(tenant));
}

/** The plan's seats per room, as a PostgreSQL int. */
export function planSeatCap(tenant: Tenant): number {
  return Math.min(resolveLimits(tenant.plan, tenant.entitlementOverrides).maxParticipantsPerRoom, 2_147_483_647);
}

export const roomFull = (cap: number) => new ApiError('ROOM_FULL', `The room is full (${cap} participants).`);

type SeatQuestion = { tx: Tx; tenant: Tenant; room: Room; externalUserId: string; now: Date };

/** Whether a seat is free for this user (convene_seat_free: exact under the room lock). */
async function seatFree({ tx, tenant, room, externalUserId, now }: SeatQuestion) {
  const [{ free }] = await tx.$queryRaw<{ free: boolean }[]>`
    SELECT convene_seat_free(${room.id}, ${externalUserId}, ${seatCap(tenant, room)}::int,
      ${holdSince(now).toISOString()}::timestamptz AT TIME ZONE 'UTC') AS free`;
  return free;
}

/** Refuses with ROOM_FULL unless a seat is free for this user (seatFree). */
export async function assertSeatFree(question: SeatQuestion) {
  if (!(await seatFree(question))) throw roomFull(seatCap(question.tenant, question.room));
}

type Entry = 'open' | 'locked' | 'full' | 'ended' | 'removed' | 'denied';

/**
 * Whether a participant who already holds a token can go in now: what the hosted call UI asks
 * before it connects, so a person reads "locked" or "full" instead of a media error. The join's
 * own rules: a removed participant, or one refused from the waiting room, never comes back; an
 * ended room is over; a participant holding a seat (connected, or let in by a join or an
 * admission within the hold) uses it; anyone else is stopped by a lock (hosts and moderators
 * excepted) and needs a free seat.
 */
export async function entryFor({
  tenant,
  room,
  participant,
  now = new Date(),
}: {
  tenant: Tenant;
  room: Room;
  participant: Participant;
  now?: Date;
}): Promise<Entry> {
  if (isTurnedAway(participant)) return participant.connectionState === 'REMOVED' ? 'removed' : 'denied';
  if (room.status === 'ENDED') return 'ended';
  const [{ held }] = await db().$queryRaw<{ held: boolean }[]>`
    SELECT coalesce((SELECT convene_holds_seat(p, ${holdSince(now).toISOString()}::timestamptz AT TIME ZONE 'UTC')
      FROM "Participant" p WHERE p.id = ${participant.id}), false) AS held`;
  if (held) return 'open';
  if (room.isLocked && !isModeratorRole(participant.role)) return 'locked';
  return (await seatFree({ tx: db(), tenant, room, externalUserId: participant.externalUserId, now }))
    ? 'open'
    : 'full';
}
