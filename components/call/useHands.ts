'use client';

import type { Participant, Room } from 'livekit-client';
import { useRoomValue } from '@/components/call/useRoomValue';
import { HAND_ATTRIBUTE } from '@/lib/hand-attribute';

export interface RaisedHand {
  participant: Participant;
  /** When it went up (ISO time, written by the server): the queue's order. */
  raisedAt: string;
}

function handsIn(room: Room): RaisedHand[] {
  return [room.localParticipant, ...room.remoteParticipants.values()]
    .map((participant) => ({ participant, raisedAt: participant.attributes[HAND_ATTRIBUTE] ?? '' }))
    .filter((h) => h.raisedAt !== '')
    .sort((a, b) => a.raisedAt.localeCompare(b.raisedAt));
}

/** Everyone whose hand is up, first raised first (the server-written HAND_ATTRIBUTE; lib/domain/hands.ts). */
export function useHands(): RaisedHand[] {
  return useRoomValue(handsIn);
}
