import type { z } from 'zod';
import { db } from '@/lib/db';
import { forbidden, invalidState } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { isMediaNotFound } from '@/lib/media';
import { LIVE_TOPICS } from '@/lib/live-topics';
import { broadcast } from '@/lib/domain/live-updates';
import { endRoom } from '@/lib/domain/room-end';
import { moveToBreakout } from '@/lib/domain/breakouts';
import {
  defaultPermissions,
  findParticipant,
  isInCall,
  mediaRoomOf,
  removeParticipant,
  requireModerator,
  updateParticipant,
} from '@/lib/domain/participants';
import type { ParticipantCredential } from '@/lib/domain/me';
import type { Participant } from '@/lib/generated/prisma/client';
import type { hostMoveInput, hostMuteInput, hostRoleInput, spotlightInput } from '@/lib/domain/host-actions.schemas';
import { SPOTLIGHT_ATTRIBUTE } from '@/lib/spotlight-attribute';

/**
 * What a host or moderator does to one person from the call (People panel), with their own
 * participant token: the same domain functions as the tenant-key API, behind the role in OUR
 * records. Nobody acts on themselves here (the call's own controls do that), and only a host acts
 * on a host or makes someone host, so a moderator cannot remove or demote the person who made them.
 */
async function moderatorAndTarget({ tenant, room, participant }: ParticipantCredential, participantId: string) {
  const actor = await requireModerator(room.id, participant.externalUserId);
  const target = await findParticipant(tenant.id, room.id, participantId);
  if (target.id === actor.id) throw invalidState('Use the call’s own controls for yourself.');
  if (target.role === 'HOST' && actor.role !== 'HOST') throw forbidden('Only a host can act on a host.');
  return { actor, target };
}

/** Who the host's per-person actions can name: connected (or just let in) to the main room, and the open breakouts. */
export async function callRoster(credential: ParticipantCredential) {
  const { room, participant } = credential;
  await requireModerator(room.id, participant.externalUserId);
  const [people, breakouts] = await Promise.all([
    db().participant.findMany({
      where: { roomId: room.id, connectionState: { in: ['CONNECTED', 'PENDING'] }, isApproved: true, breakoutId: null },
      select: { id: true, mediaIdentity: true, displayName: true, role: true },
      orderBy: { displayName: 'asc' },
      take: 500,
    }),
    db().breakout.findMany({
      where: { roomId: room.id, status: 'OPEN' },
      select: { id: true, name: true },
      orderBy: { createdAt: 'asc' },
      take: 100,
    }),
  ]);
  return { participants: people, breakouts };
}

/**
 * Mutes one person's microphone or camera in the media layer (they may unmute themselves: a host
 * asks for quiet, it does not take the grant away), then tells them who did it on the
 * `convene.host` topic, so their call can say "the host muted you".
 */
export async function muteAsModerator(
  credential: ParticipantCredential,
  participantId: string,
  input: z.infer<typeof hostMuteInput>,
) {
  const { target } = await moderatorAndTarget(credential, participantId);
  return muteParticipant({ ...credential, target, source: input.source, by: credential.participant.displayName });
}

/**
 * The mute itself, once the caller's authority is settled: a moderator's in the call
 * (muteAsModerator), or the tenant's own in the console's live view (lib/domain/live-room.ts).
 * `by` is the name the muted person is shown.
 */
export async function muteParticipant({
  tenant,
  room,
  target,
  source,
  by,
}: Pick<ParticipantCredential, 'tenant' | 'room'> & {
  target: Participant;
  source: z.infer<typeof hostMuteInput>['source'];
  by: string;
}) {
  if (!isInCall(target))
    throw invalidState(`Participant is ${target.connectionState}; only someone in the call can be muted.`);
  let mutedTracks = 0;
  try {
    mutedTracks = await mediaFor(tenant).muteTracks(
      await mediaRoomOf(target, room),
      target.mediaIdentity,
      source === 'microphone' ? 'MICROPHONE' : 'CAMERA',
    );
  } catch (err) {
    if (!isMediaNotFound(err)) throw err; // not connected to the media room (yet): nothing to mute
  }
  if (mutedTracks > 0)
    await broadcast({
      tenant,
      room,
      topic: LIVE_TOPICS.host,
      payload: { type: 'host.muted', source, by },
      destinationIdentities: [target.mediaIdentity],
    });
  return { participantId: target.id, mutedTracks };
}

export async function removeAsModerator(credential: ParticipantCredential, participantId: string) {
  const { target } = await moderatorAndTarget(credential, participantId);
  return removeParticipant(credential.tenant, credential.room.id, target.id);
}

/**
 * Role changes (co-host = MODERATOR); the new role reaches everyone's call through the participant's
 * metadata. What the role may publish comes with it (a VIEWER publishes nothing, camera, microphone
 * or screen), and the media layer applies the new grants at once, in the room they are in (a
 * breakout's too): their tracks a VIEWER may no longer publish are unpublished without a rejoin.
 */
export async function setRoleAsModerator(
  credential: ParticipantCredential,
  participantId: string,
  input: z.infer<typeof hostRoleInput>,
) {
  const { actor, target } = await moderatorAndTarget(credential, participantId);
  if (input.role === 'HOST' && actor.role !== 'HOST') throw forbidden('Only a host can make someone host.');
  const { canPublish, canScreenShare } = defaultPermissions(input.role);
  return updateParticipant({
    tenant: credential.tenant,
    roomId: credential.room.id,
    participantId: target.id,
    input: { role: input.role, canPublish, canScreenShare },
  });
}

export async function moveAsModerator(
  credential: ParticipantCredential,
  participantId: string,
  input: z.infer<typeof hostMoveInput>,
) {
  const { target } = await moderatorAndTarget(credential, participantId);
  return moveToBreakout({
    tenant: credential.tenant,
    roomId: credential.room.id,
    breakoutId: input.breakoutId,
    input: { actingExternalUserId: credential.participant.externalUserId, participantId: target.id },
  });
}

/** End meeting for everyone: the room ends as through the tenant API (everyone is disconnected, room.finished fires). */
export async function endAsModerator({ tenant, room, participant }: ParticipantCredential) {
  await requireModerator(room.id, participant.externalUserId);
  return endRoom(tenant, room.id);
}

/**
 * Spotlight for everyone: a host or moderator names whom every participant's stage focuses
 * (themselves included), or nobody. It travels as SPOTLIGHT_ATTRIBUTE on the moderator's OWN
 * media participant — attributes only this server writes — and calls honour it only from
 * moderators, latest first, so a later "nobody" from any moderator clears it and it goes with the
 * moderator who set it. Nothing is stored.
 */
export async function spotlightAsModerator(
  { tenant, room, participant }: ParticipantCredential,
  input: z.infer<typeof spotlightInput>,
) {
  const actor = await requireModerator(room.id, participant.externalUserId);
  const target = input.participantId ? await findParticipant(tenant.id, room.id, input.participantId) : null;
  if (target && !isInCall(target))
    throw invalidState(`Participant is ${target.connectionState}; only someone in the call can be spotlighted.`);
  const spotlightedAt = new Date().toISOString();
  const value = JSON.stringify({ identity: target?.mediaIdentity ?? null, at: spotlightedAt });
  try {
    // Spotlight is the stage of the room the moderator is in (a breakout has its own).
    await mediaFor(tenant).updateParticipant(await mediaRoomOf(actor, room), actor.mediaIdentity, {
      attributes: { [SPOTLIGHT_ATTRIBUTE]: value },
    });
  } catch (err) {
    if (isMediaNotFound(err)) throw invalidState('Join the call first: the media layer does not know you.');
    throw err;
  }
  return { participantId: target?.id ?? null, spotlightedAt };
}
