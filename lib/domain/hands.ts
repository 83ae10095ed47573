import type { Participant } from '@/lib/generated/prisma/client';
import { ApiError, invalidState } from '@/lib/errors';
import { effectiveBranding } from '@/lib/domain/branding';
import { mediaFor } from '@/lib/domain/media';
import { isMediaNotFound } from '@/lib/media';
import { findParticipant, isInCall, mediaRoomOf, requireModerator } from '@/lib/domain/participants';
import type { ParticipantCredential } from '@/lib/domain/me';
import { HAND_ATTRIBUTE } from '@/lib/hand-attribute';

/**
 * Raised hands live where the call lives: a participant attribute in the media layer
 * (HAND_ATTRIBUTE = the time it went up, which orders the queue), written only by this server —
 * Convene's tokens do not let a participant set their own attributes, so nobody raises or lowers
 * another's hand by hand-crafting packets. Everyone's call sees it change at once (LiveKit's
 * ParticipantAttributesChanged); a late joiner gets it with the participant list. A hand goes
 * down with the session: nothing is stored, and no webhook fires (docs/hosted-ui.md says why).
 */
async function setHand(
  credential: Pick<ParticipantCredential, 'tenant' | 'room'>,
  target: Participant,
  raised: boolean,
) {
  if (!isInCall(target))
    throw invalidState(`Participant is ${target.connectionState}; only someone in the call has a hand to raise.`);
  const raisedAt = raised ? new Date().toISOString() : null;
  try {
    // In a breakout, the hand goes up where they are.
    await mediaFor(credential.tenant).updateParticipant(
      await mediaRoomOf(target, credential.room),
      target.mediaIdentity,
      {
        attributes: { [HAND_ATTRIBUTE]: raisedAt ?? '' },
      },
    );
  } catch (err) {
    if (isMediaNotFound(err))
      throw invalidState('Join the call first: the media layer does not know this participant.');
    throw err;
  }
  return { participantId: target.id, raised, raisedAt };
}

/**
 * The participant raises or lowers their own hand. Raising is refused where the tenant switched raise
 * hand off (raiseHandEnabled): the call UI hides the button there, and a client calling anyway must
 * not put a hand in the hosts' queue. Lowering stays allowed: a hand raised before the switch can
 * still come down.
 */
export async function setOwnHand(credential: ParticipantCredential, input: { raised: boolean }) {
  if (input.raised && !(await effectiveBranding(credential.tenant)).raiseHandEnabled)
    throw new ApiError('FEATURE_DISABLED', 'Raise hand is turned off for this tenant (raiseHandEnabled is false).');
  return setHand(credential, credential.participant, input.raised);
}

/** A host or moderator lowers anyone's hand (e.g. once they have spoken). */
export async function lowerHandAsModerator(credential: ParticipantCredential, participantId: string) {
  const { tenant, room, participant } = credential;
  await requireModerator(room.id, participant.externalUserId);
  return setHand(credential, await findParticipant(tenant.id, room.id, participantId), false);
}

/** Lowers someone's hand on the tenant's own authority (the console's live view, lib/domain/live-room.ts). */
export async function lowerHand(context: Pick<ParticipantCredential, 'tenant' | 'room'>, target: Participant) {
  return setHand(context, target, false);
}
