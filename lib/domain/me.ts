import type { z } from 'zod';
import { ApiError } from '@/lib/errors';
import { db } from '@/lib/db';
import type { Participant, Room, Tenant } from '@/lib/generated/prisma/client';
import { roomFacts } from '@/lib/domain/join-token';
import {
  approveParticipant,
  denyParticipant,
  entryFor,
  isModeratorRole,
  muteAll,
  participantSelfView,
  requireModerator,
} from '@/lib/domain/participants';
import type { lockInput } from '@/lib/domain/me.schemas';

/** Who a verified participant token speaks for: the participant as OUR database has it, its room and tenant. */
export interface ParticipantCredential {
  participant: Participant;
  room: Room;
  tenant: Tenant;
}

/**
 * What the hosted call UI does with the participant's own token: read who it is, and — for a
 * HOST or MODERATOR according to OUR records — mute everyone, lock the room, admit or refuse
 * people from the waiting room. The same domain functions as the tenant-key API.
 */
export async function me({ tenant, participant, room }: ParticipantCredential) {
  const entry = await entryFor({ tenant, room, participant });
  // Removed or refused: refused like on every participant-token endpoint; the one detail says which,
  // so the call UI can tell the person why it does not connect.
  if (entry === 'removed' || entry === 'denied')
    throw new ApiError(
      'FORBIDDEN',
      entry === 'removed' ? 'You were removed from this room.' : 'You were refused entry to this room.',
      [{ field: 'entry', message: entry }],
    );
  return {
    participant: participantSelfView(participant),
    room: { ...roomFacts(room), isLocked: room.isLocked, status: room.status },
    isModerator: isModeratorRole(participant.role),
    entry,
  };
}

export async function muteAllAsParticipant({ tenant, room, participant }: ParticipantCredential) {
  return muteAll(tenant, room.id, participant.externalUserId);
}

export async function lockAsParticipant(
  { room, participant }: ParticipantCredential,
  input: z.infer<typeof lockInput>,
) {
  await requireModerator(room.id, participant.externalUserId);
  const updated = await db().room.update({ where: { id: room.id }, data: { isLocked: input.locked } });
  return { roomId: updated.id, isLocked: updated.isLocked };
}

export async function waitingList({ room, participant }: ParticipantCredential) {
  await requireModerator(room.id, participant.externalUserId);
  const waiting = await db().participant.findMany({
    where: { roomId: room.id, connectionState: 'WAITING' },
    orderBy: { updatedAt: 'asc' },
    take: 100,
  });
  return {
    data: waiting.map((p) => ({
      id: p.id,
      displayName: p.displayName,
      avatarUrl: p.avatarUrl,
      role: p.role,
      waitingSince: p.updatedAt.toISOString(),
    })),
    nextCursor: null,
  };
}

export async function admitAsParticipant({ tenant, room, participant }: ParticipantCredential, participantId: string) {
  return approveParticipant({
    tenant,
    roomId: room.id,
    participantId,
    actingExternalUserId: participant.externalUserId,
  });
}

export async function denyAsParticipant({ tenant, room, participant }: ParticipantCredential, participantId: string) {
  return denyParticipant({ tenant, roomId: room.id, participantId, actingExternalUserId: participant.externalUserId });
}
