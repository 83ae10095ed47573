import type { Room, Tenant } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { ApiError } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { emitEvent } from '@/lib/events/outbox';
import { endSession } from '@/lib/domain/sessions';
import { stopCaptionsOfEndedRoom } from '@/lib/domain/captions';
import { findRoom, roomViewWithParticipants } from '@/lib/domain/rooms';
import { lockRoom } from '@/lib/domain/room-lock';
import { iso, secondsBetween } from '@/lib/domain/time';

// Ending a room touches sessions, captions and participants; no module it calls imports it back.

/**
 * Ends a room: the media room is deleted first (a media failure leaves the room as it was),
 * then the room is ENDED and connected participants disconnected. Ending an ended room is a
 * no-op, so room.finished is emitted exactly once per end.
 */
export async function endRoom(tenant: Tenant, roomId: string, now = new Date()) {
  const room = await findRoom(tenant.id, roomId);
  if (room.status === 'ENDED') return roomViewWithParticipants(room);
  await mediaFor(tenant).deleteRoom(room.mediaRoomName);
  const ended = await finishRoom(room.id, now);
  return roomViewWithParticipants(ended ?? (await findRoom(tenant.id, roomId)));
}

/**
 * The ENDED transition, shared by the end endpoint, media webhooks and lifecycle jobs: in the
 * caller's transaction, else in one of its own. Null if already ended.
 */
export async function finishRoom(roomId: string, now: Date, { tx }: { tx?: Tx } = {}): Promise<Room | null> {
  const run = async (t: Tx) => {
    const room = await lockRoom({ tx: t, roomId }).catch((err) => {
      if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    if (!room || room.status === 'ENDED') return null;
    const duration = secondsBetween(room.startedAt, now);
    const ended = await t.room.update({
      where: { id: roomId },
      data: { status: 'ENDED', endedAt: now, duration, activeParticipants: 0 },
    });
    await endSession(room, now, { tx: t });
    await stopCaptionsOfEndedRoom(roomId, now, { tx: t });
    const connected = await t.participant.findMany({ where: { roomId, connectionState: 'CONNECTED' } });
    for (const p of connected) {
      await t.participant.update({
        where: { id: p.id },
        data: {
          connectionState: 'DISCONNECTED',
          leftAt: now,
          duration: (p.duration ?? 0) + (secondsBetween(p.joinedAt, now) ?? 0),
        },
      });
    }
    await emitEvent({
      tx: t,
      tenantId: room.tenantId,
      name: 'room.finished',
      data: {
        roomId: room.id,
        mediaRoomName: room.mediaRoomName,
        status: 'ENDED',
        startedAt: iso(room.startedAt),
        endedAt: now.toISOString(),
        duration,
      },
    });
    return ended;
  };
  return tx ? run(tx) : db().$transaction(run);
}
