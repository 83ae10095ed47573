import { z } from 'zod';
import { ConnectionState, ParticipantRole } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import {
  displayName,
  externalId,
  named,
  nullableTimestamp,
  page,
  storedMetadata,
  timestamp,
} from '@/lib/domain/shared.schemas';

/** Participants: request and response schemas. Rooms embed participants, so rooms.schemas.ts builds on this. */
export const participantRole = z.enum(ParticipantRole);
const connectionState = z.enum(ConnectionState);

/** What a participant may do: the same fields in requests and in the Participant response. */
const participantPermissions = {
  canPublish: z.boolean(),
  canSubscribe: z.boolean(),
  canPublishData: z.boolean(),
  canScreenShare: z.boolean(),
  canRecord: z.boolean(),
};

export const actingUserInput = z.object({ actingExternalUserId: externalId });

export const participantUpdateInput = z
  .object({
    role: participantRole,
    ...participantPermissions,
    displayName,
  })
  .partial();
export type ParticipantUpdateInput = z.infer<typeof participantUpdateInput>;

export const participantListQuery = paginationQuery.extend({ connectionState: connectionState.optional() });

export const participantResponse = named(
  'Participant',
  'A participant of a room (one row per external user per room).',
  z.object({
    id: z.string(),
    roomId: z.string(),
    externalUserId: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    mediaIdentity: z.string(),
    mediaSid: z.string().nullable(),
    role: participantRole,
    ...participantPermissions,
    isApproved: z.boolean(),
    approvedBy: z.string().nullable(),
    connectionState,
    joinedAt: nullableTimestamp,
    leftAt: nullableTimestamp,
    /** Seconds connected, summed over sessions. */
    duration: z.int().nullable(),
    rejoinCount: z.int(),
    externalRole: z.string().nullable(),
    externalMetadata: storedMetadata,
    breakoutId: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type ParticipantResponse = z.output<typeof participantResponse>;
export const participantPage = page('ParticipantPage', participantResponse, 'participants');

export const admissionResponse = named(
  'AdmissionStatus',
  'A waiting participant’s admission: a token once approved.',
  z.object({
    status: z.enum(['waiting', 'denied', 'approved']),
    roomName: z.string().describe('The room’s name, for the waiting page to show.'),
    token: z.string().nullable(),
    mediaUrl: z.string().nullable(),
    joinUrl: z.string().nullable(),
    participant: participantResponse,
  }),
);
export type AdmissionResponse = z.output<typeof admissionResponse>;
