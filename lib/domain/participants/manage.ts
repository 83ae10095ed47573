import type { Participant, ParticipantRole, Room, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Prisma, type Tx } from '@/lib/db';
import { randomBase62 } from '@/lib/crypto';
import { forbidden, notFound } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import type { ParticipantUpdateInput, participantListQuery } from '@/lib/domain/participants.schemas';
import { isMediaNotFound } from '@/lib/media';
import { tokenMetadata } from '@/lib/domain/join-token';
import { defaultPermissions, isModeratorRole, isTurnedAway, MODERATOR_ROLES } from '@/lib/domain/participants/roles';
import { grantsFor, mediaRoomOf } from '@/lib/domain/participants/tokens';
import { participantView } from '@/lib/domain/participants/views';

/** A new participant row: the role's default permissions and a random media identity (never the user's own id). */
export function createParticipant({
  tx,
  room,
  externalUserId,
  role,
  data,
}: {
  tx: Tx;
  room: Pick<Room, 'id' | 'tenantId'>;
  externalUserId: string;
  role: ParticipantRole;
  data: Omit<
    Prisma.ParticipantUncheckedCreateInput,
    'roomId' | 'tenantId' | 'externalUserId' | 'role' | 'mediaIdentity'
  >;
}) {
  return tx.participant.create({
    data: {
      ...defaultPermissions(role),
      ...data,
      roomId: room.id,
      tenantId: room.tenantId,
      externalUserId,
      role,
      mediaIdentity: `p_${randomBase62(20)}`,
    },
  });
}

export async function findParticipant(
  tenantId: string,
  roomId: string,
  participantId: string,
  { tx = db() }: { tx?: Tx } = {},
) {
  const participant = await tx.participant.findFirst({ where: { id: participantId, roomId, tenantId } });
  if (!participant) throw notFound('Participant');
  return participant;
}

/** Moderator actions: the acting user must be a HOST or MODERATOR of the room in OUR database. */
export async function requireModerator(roomId: string, externalUserId: string, { tx = db() }: { tx?: Tx } = {}) {
  const actor = await tx.participant.findUnique({ where: { roomId_externalUserId: { roomId, externalUserId } } });
  if (!actor || !isModeratorRole(actor.role) || isTurnedAway(actor)) {
    throw forbidden('The acting user is not a host or moderator of this room.');
  }
  return actor;
}

export async function getParticipant(tenant: Tenant, roomId: string, participantId: string) {
  await findRoom(tenant.id, roomId);
  return participantView(await findParticipant(tenant.id, roomId, participantId));
}

export async function listParticipants(tenant: Tenant, roomId: string, query: z.infer<typeof participantListQuery>) {
  await findRoom(tenant.id, roomId);
  const page = pageArgs(query);
  const rows = await db().participant.findMany({
    where: {
      roomId,
      tenantId: tenant.id,
      ...(query.connectionState ? { connectionState: query.connectionState } : {}),
      ...page.where,
    },
    orderBy: page.orderBy,
    take: page.take,
  });
  return toPage(rows, query, participantView);
}

/**
 * Role and permission changes. A connected participant's new grants and metadata are pushed to
 * the media layer first; if that fails nothing is written.
 */
export async function updateParticipant({
  tenant,
  roomId,
  participantId,
  input,
}: {
  tenant: Tenant;
  roomId: string;
  participantId: string;
  input: ParticipantUpdateInput;
}) {
  const room = await findRoom(tenant.id, roomId);
  const current = await findParticipant(tenant.id, roomId, participantId);
  const next: Participant = { ...current, ...input };
  if (current.connectionState === 'CONNECTED') {
    // In the media room they are in: a breakout's, if they were moved to one.
    await mediaFor(tenant).updateParticipant(await mediaRoomOf(current, room), current.mediaIdentity, {
      metadata: tokenMetadata(next, room),
      grants: grantsFor(next, room),
    });
  }
  return participantView(await db().participant.update({ where: { id: current.id }, data: input }));
}

/** Kick: disconnects the participant in the media layer, then marks it REMOVED (it cannot rejoin). */
export async function removeParticipant(tenant: Tenant, roomId: string, participantId: string) {
  const room = await findRoom(tenant.id, roomId);
  const participant = await findParticipant(tenant.id, roomId, participantId);
  if (participant.connectionState === 'REMOVED') return participantView(participant);
  // PENDING too: a browser may have connected before the media layer's participant_joined reached us.
  if (participant.connectionState === 'CONNECTED' || participant.connectionState === 'PENDING') {
    try {
      await mediaFor(tenant).removeParticipant(await mediaRoomOf(participant, room), participant.mediaIdentity);
    } catch (err) {
      // Not there is fine; for one we never saw connect, an unreachable media layer is no reason to refuse.
      if (!isMediaNotFound(err) && participant.connectionState === 'CONNECTED') throw err;
    }
  }
  const now = new Date();
  const updated = await db().participant.update({
    where: { id: participant.id },
    data: {
      connectionState: 'REMOVED',
      isApproved: false,
      admissionSecretHash: null,
      ...(participant.connectionState === 'CONNECTED' ? { leftAt: now } : {}),
    },
  });
  return participantView(updated);
}

/** Mutes every non-moderator's audio in the media layer. Acting user: HOST or MODERATOR. */
export async function muteAll(tenant: Tenant, roomId: string, actingExternalUserId: string) {
  const room = await findRoom(tenant.id, roomId);
  await requireModerator(room.id, actingExternalUserId);
  const moderators = await db().participant.findMany({
    where: { roomId: room.id, role: { in: MODERATOR_ROLES } },
    select: { mediaIdentity: true },
  });
  let mutedTracks = 0;
  try {
    mutedTracks = await mediaFor(tenant).muteAllAudio(
      room.mediaRoomName,
      new Set(moderators.map((m) => m.mediaIdentity)),
    );
  } catch (err) {
    if (!isMediaNotFound(err)) throw err; // nobody has connected yet: nothing to mute
  }
  return { roomId: room.id, mutedTracks };
}
