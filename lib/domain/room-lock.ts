import type { Room } from '@/lib/generated/prisma/client';
import type { Tx } from '@/lib/db';
import { notFound } from '@/lib/errors';

/**
 * The room row, locked FOR UPDATE until the transaction ends: what every change that must see the
 * room's participants settle takes first (a join near the cap, an admission, an end, a session's
 * bookkeeping). With `tenantId`, another tenant's room is not found.
 */
export async function lockRoom({ tx, roomId, tenantId }: { tx: Tx; roomId: string; tenantId?: string }): Promise<Room> {
  // The locked row itself (one round trip): the column names are the model's field names.
  const [room] = tenantId
    ? await tx.$queryRaw<Room[]>`SELECT * FROM "Room" WHERE id = ${roomId} AND "tenantId" = ${tenantId} FOR UPDATE`
    : await tx.$queryRaw<Room[]>`SELECT * FROM "Room" WHERE id = ${roomId} FOR UPDATE`;
  if (!room) throw notFound('Room');
  return room;
}
