import type { Breakout, Tenant } from '@/lib/generated/prisma/client';
import { OLDEST_FIRST, pageArgs, toPage, type PageQuery } from '@/lib/domain/pagination';
import { db } from '@/lib/db';
import { invalidState, notFound } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { findRoom, newMediaRoomName } from '@/lib/domain/rooms';
import { findParticipant, participantView, requireModerator } from '@/lib/domain/participants';
import type { BreakoutResponse } from '@/lib/domain/breakouts.schemas';
import { iso } from '@/lib/domain/time';

/**
 * Breakouts: each is a media-layer room of its own, linked to its parent room. Participants keep
 * their seat (and their participant row) in the parent room while in a breakout.
 */
function breakoutView(b: Breakout): BreakoutResponse {
  return {
    id: b.id,
    roomId: b.roomId,
    name: b.name,
    mediaRoomName: b.mediaRoomName,
    status: b.status,
    createdByExternalId: b.createdByExternalId,
    createdAt: b.createdAt.toISOString(),
    closedAt: iso(b.closedAt),
  };
}

export async function createBreakout(
  tenant: Tenant,
  roomId: string,
  input: { name: string; createdByExternalId: string },
) {
  const room = await findRoom(tenant.id, roomId);
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  await requireModerator(room.id, input.createdByExternalId);
  const breakout = await db().breakout.create({
    data: {
      roomId: room.id,
      tenantId: tenant.id,
      name: input.name,
      mediaRoomName: newMediaRoomName(),
      createdByExternalId: input.createdByExternalId,
    },
  });
  return breakoutView(breakout);
}

/** A room's breakouts, oldest first (the order they were opened), paged. */
export async function listBreakouts(tenant: Tenant, roomId: string, page: PageQuery) {
  await findRoom(tenant.id, roomId);
  const args = pageArgs(page, OLDEST_FIRST);
  const rows = await db().breakout.findMany({
    where: { roomId, tenantId: tenant.id, ...args.where },
    orderBy: args.orderBy,
    take: args.take,
  });
  return toPage(rows, page, breakoutView, { order: OLDEST_FIRST });
}

async function findBreakout(tenantId: string, roomId: string, breakoutId: string) {
  const breakout = await db().breakout.findFirst({ where: { id: breakoutId, roomId, tenantId } });
  if (!breakout) throw notFound('Breakout');
  return breakout;
}

/**
 * Closing a breakout moves everyone still in it back to the main room and deletes its media room.
 */
export async function closeBreakout({
  tenant,
  roomId,
  breakoutId,
  actingExternalUserId,
}: {
  tenant: Tenant;
  roomId: string;
  breakoutId: string;
  actingExternalUserId: string;
}) {
  const room = await findRoom(tenant.id, roomId);
  await requireModerator(room.id, actingExternalUserId);
  const breakout = await findBreakout(tenant.id, roomId, breakoutId);
  if (breakout.status === 'CLOSED') return breakoutView(breakout);
  const media = mediaFor(tenant);
  const inside = await db().participant.findMany({ where: { breakoutId: breakout.id, connectionState: 'CONNECTED' } });
  // The rows say "main room" before the media layer moves anyone: the breakout's participant_left
  // that a move sends is then not taken for leaving the meeting (lib/domain/media-events.ts).
  await db().participant.updateMany({ where: { breakoutId: breakout.id }, data: { breakoutId: null } });
  for (const p of inside) await media.moveParticipant(breakout.mediaRoomName, p.mediaIdentity, room.mediaRoomName);
  await media.deleteRoom(breakout.mediaRoomName);
  const closed = await db().breakout.update({
    where: { id: breakout.id },
    data: { status: 'CLOSED', closedAt: new Date() },
  });
  return breakoutView(closed);
}

/** Moves one connected participant into an open breakout (moderator action). */
export async function moveToBreakout({
  tenant,
  roomId,
  breakoutId,
  input,
}: {
  tenant: Tenant;
  roomId: string;
  breakoutId: string;
  input: { actingExternalUserId: string; participantId: string };
}) {
  const room = await findRoom(tenant.id, roomId);
  await requireModerator(room.id, input.actingExternalUserId);
  const breakout = await findBreakout(tenant.id, roomId, breakoutId);
  if (breakout.status !== 'OPEN') throw invalidState('The breakout is closed.');
  const participant = await findParticipant(tenant.id, roomId, input.participantId);
  if (participant.connectionState !== 'CONNECTED')
    throw invalidState(`Participant is ${participant.connectionState}; only a connected participant can be moved.`);
  if (participant.breakoutId === breakout.id)
    return { participant: participantView(participant), breakout: breakoutView(breakout) };
  const from = participant.breakoutId
    ? (await findBreakout(tenant.id, roomId, participant.breakoutId)).mediaRoomName
    : room.mediaRoomName;
  // The row says "in the breakout" before the media layer moves them, so the participant_left the
  // move sends from the old room is not taken for leaving the meeting; back if the move fails.
  const moved = await db().participant.update({ where: { id: participant.id }, data: { breakoutId: breakout.id } });
  try {
    await mediaFor(tenant).moveParticipant(from, participant.mediaIdentity, breakout.mediaRoomName);
  } catch (err) {
    await db().participant.update({ where: { id: participant.id }, data: { breakoutId: participant.breakoutId } });
    throw err;
  }
  return { participant: participantView(moved), breakout: breakoutView(breakout) };
}
