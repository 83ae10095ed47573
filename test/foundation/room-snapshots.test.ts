import { describe, expect, it } from 'vitest';
import type { Room } from '@/lib/generated/prisma/client';
import type { RoomResponse } from '@/lib/domain/rooms.schemas';
import {
  knownRoomSnapshot,
  rememberRoomSnapshot,
  ROOM_SNAPSHOTS_BUDGET,
  roomSnapshotsHeld,
} from '@/lib/domain/room-snapshots';

/** A Room view of about `chars` characters of JSON (its participants carry the tenant's metadata). */
const snapshot = (id: string, chars: number, version = 'v1') => ({
  version,
  room: { id } as Room,
  view: {
    id,
    participants: [{ id: `${id}_p`, externalMetadata: { note: 'x'.repeat(chars) } }],
  } as unknown as RoomResponse,
});

describe('room snapshots', () => {
  it('keep the latest version per room, frozen', () => {
    rememberRoomSnapshot('r_a', snapshot('r_a', 10, 'v1'));
    rememberRoomSnapshot('r_a', snapshot('r_a', 10, 'v2'));
    const known = knownRoomSnapshot('r_a')!;
    expect(known.version).toBe('v2');
    expect(Object.isFrozen(known.view)).toBe(true);
    expect(Object.isFrozen(known.view.participants[0])).toBe(true);
  });

  it('hold no more JSON text than the budget: the least recently joined go first; one larger than it is not kept', () => {
    const quarter = Math.floor(ROOM_SNAPSHOTS_BUDGET / 4);
    for (const id of ['r_1', 'r_2', 'r_3']) rememberRoomSnapshot(id, snapshot(id, quarter));
    knownRoomSnapshot('r_1'); // joined again: now the most recent
    rememberRoomSnapshot('r_4', snapshot('r_4', quarter));
    rememberRoomSnapshot('r_5', snapshot('r_5', quarter));
    expect(roomSnapshotsHeld().size).toBeLessThanOrEqual(ROOM_SNAPSHOTS_BUDGET);
    expect(knownRoomSnapshot('r_2')).toBeUndefined();
    expect(knownRoomSnapshot('r_1')).toBeDefined();
    expect(knownRoomSnapshot('r_5')).toBeDefined();

    const huge = rememberRoomSnapshot('r_huge', snapshot('r_huge', ROOM_SNAPSHOTS_BUDGET + 1));
    expect(huge.view.id).toBe('r_huge'); // still the join's answer
    expect(knownRoomSnapshot('r_huge')).toBeUndefined();
    expect(roomSnapshotsHeld().size).toBeLessThanOrEqual(ROOM_SNAPSHOTS_BUDGET);
  });
});
