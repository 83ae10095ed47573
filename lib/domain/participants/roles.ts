import type { Participant, ParticipantRole } from '@/lib/generated/prisma/client';

export const MODERATOR_ROLES: ParticipantRole[] = ['HOST', 'MODERATOR'];
export const isModeratorRole = (role: ParticipantRole) => MODERATOR_ROLES.includes(role);

/** Permissions a role starts with; PATCH may change them afterwards. */
export function defaultPermissions(role: ParticipantRole) {
  return {
    canPublish: role !== 'VIEWER',
    canSubscribe: true,
    canPublishData: true,
    canScreenShare: role !== 'VIEWER',
    canRecord: role === 'HOST',
  };
}

/** In the call, or handed a token to join it: someone with a hand, tracks, a tile to spotlight. */
export function isInCall(p: Pick<Participant, 'connectionState'>): boolean {
  return p.connectionState === 'CONNECTED' || p.connectionState === 'PENDING';
}

/** Removed by a host or refused from the waiting room: such a participant does not come back. */
export function isTurnedAway(p: Pick<Participant, 'connectionState'>): boolean {
  return p.connectionState === 'REMOVED' || p.connectionState === 'DENIED';
}

/** Who may vote, ask and upvote: a participant of the room not turned away and not still waiting. */
export function isActiveMember(p: Pick<Participant, 'connectionState'> | null): p is Participant {
  return !!p && !isTurnedAway(p) && p.connectionState !== 'WAITING';
}
