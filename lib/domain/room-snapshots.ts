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
 * Per process, within a budget of JSON text (a Room's participants carry their tenant's metadata,
 * so one view may be large): the least recently joined rooms are dropped first, and a view
 * larger than the whole budget is not kept. Entries are frozen: every join result shares them,
 * and the view's JSON text is made once (lib/json-text.ts).
 */
export interface RoomSnapshot {
  version: string;
  room: Readonly<Room>;
  view: Readonly<RoomResponse>;
}

/** Characters of JSON text kept over all rooms (the objects cost about as much again). */
export const ROOM_SNAPSHOTS_BUDGET = 16 * 1024 * 1024;

const store = processState('roomSnapshots', () => ({
  snapshots: new Map<string, { snapshot: RoomSnapshot; size: number }>(),
  size: 0,
}));

export function knownRoomSnapshot(roomId: string): RoomSnapshot | undefined {
  const entry = store.snapshots.get(roomId);
  if (!entry) return undefined;
  // Most recently used last, so the first key is the one to drop.
  store.snapshots.delete(roomId);
  store.snapshots.set(roomId, entry);
  return entry.snapshot;
}

export function rememberRoomSnapshot(roomId: string, { version, room, view }: RoomSnapshot): RoomSnapshot {
  for (const participant of view.participants) Object.freeze(participant);
  Object.freeze(view.participants);
  const snapshot = Object.freeze({ version, room: Object.freeze(room), view: Object.freeze(view) });
  const size = serializeOnce(snapshot.view).length;
  forget(roomId);
  if (size > ROOM_SNAPSHOTS_BUDGET) return snapshot;
  store.snapshots.set(roomId, { snapshot, size });
  store.size += size;
  for (const oldest of store.snapshots.keys()) {
    if (store.size <= ROOM_SNAPSHOTS_BUDGET) break;
    forget(oldest);
  }
  return snapshot;
}

/** How many rooms and characters of JSON text are kept (for tests). */
export function roomSnapshotsHeld() {
  return { rooms: store.snapshots.size, size: store.size };
}

function forget(roomId: string) {
  const entry = store.snapshots.get(roomId);
  if (!entry) return;
  store.snapshots.delete(roomId);
  store.size -= entry.size;
}
