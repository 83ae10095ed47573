import type { Participant } from '@/lib/generated/prisma/client';
import type { ParticipantResponse } from '@/lib/domain/participants.schemas';
import { iso, rowFromJson } from '@/lib/domain/time';

export function participantView(p: Participant): ParticipantResponse {
  return {
    id: p.id,
    roomId: p.roomId,
    externalUserId: p.externalUserId,
    displayName: p.displayName,
    avatarUrl: p.avatarUrl,
    mediaIdentity: p.mediaIdentity,
    mediaSid: p.mediaSid,
    role: p.role,
    canPublish: p.canPublish,
    canSubscribe: p.canSubscribe,
    canPublishData: p.canPublishData,
    canScreenShare: p.canScreenShare,
    canRecord: p.canRecord,
    isApproved: p.isApproved,
    approvedBy: p.approvedBy,
    connectionState: p.connectionState,
    joinedAt: iso(p.joinedAt),
    leftAt: iso(p.leftAt),
    duration: p.duration,
    rejoinCount: p.rejoinCount,
    externalRole: p.externalRole,
    externalMetadata: p.externalMetadata,
    breakoutId: p.breakoutId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/**
 * A participant as the participant itself reads it (participant token, admission secret):
 * externalMetadata is the tenant's own correlation data (a CRM note), never shown there: null.
 */
export function participantSelfView(p: Participant): ParticipantResponse {
  return { ...participantView(p), externalMetadata: null };
}

const PARTICIPANT_DATES = ['joinedAt', 'leftAt', 'tokenIssuedAt', 'createdAt', 'updatedAt'] as const;

export const participantFromJson = (row: Record<string, unknown>) => rowFromJson<Participant>(row, PARTICIPANT_DATES);
