import type { Room } from '@/lib/generated/prisma/client';
import type { RoomResponse } from '@/lib/domain/rooms.schemas';
import { processState } from '@/lib/runtime/process-state';
import { serializeOnce } from '@/lib/json-text';

/**
 * The last Room a join answered with, per room: the row, its view (with the room's first
 * participants) and the version of the rows both were made from (convene_join's roomVersion:
 * the room row's xmin and each listed participant's id and xmin). A join passes the version it
 * holds; the database sends the room and its participants again only if any of those rows
 * changed, so in a busy room most joins neither read nor render them. Never stale: a version is
 * only ever equal to itself, so an entry is either exactly current or replaced.
 *
 * Per process, at most MAX_ROOMS rooms, the least recently joined dropped first. Entries are
 * frozen: every join result shares them, and the view's JSON text is made once (lib/json-text.ts).
 */
export interface RoomSnapshot {
  version: string;
  room: Readonly<Room>;
  view: Readonly<RoomResponse>;
}

const MAX_ROOMS = 1_000;
const snapshots = processState('roomSnapshots', () => new Map<string, RoomSnapshot>());

export function knownRoomSnapshot(roomId: string): RoomSnapshot | undefined {
  const snapshot = snapshots.get(roomId);
  if (snapshot) {
    // Most recently used last, so the first key is the one to drop.
    snapshots.delete(roomId);
    snapshots.set(roomId, snapshot);
  }
  return snapshot;
}

export function rememberRoomSnapshot(roomId: string, { version, room, view }: RoomSnapshot): RoomSnapshot {
  for (const participant of view.participants) Object.freeze(participant);
  Object.freeze(view.participants);
  const snapshot = Object.freeze({ version, room: Object.freeze(room), view: serializeOnce(Object.freeze(view)) });
  snapshots.delete(roomId);
  snapshots.set(roomId, snapshot);
  if (snapshots.size > MAX_ROOMS) snapshots.delete(snapshots.keys().next().value!);
  return snapshot;
}
