import { z } from 'zod';
import { CallStatus } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import {
  displayName,
  externalId,
  metadataObject,
  named,
  nullableTimestamp,
  page,
  storedMetadata,
  timestamp,
} from '@/lib/domain/shared.schemas';
import { participantResponse } from '@/lib/domain/participants.schemas';
import { roomResponse } from '@/lib/domain/rooms.schemas';

/** Call queues: request and response schemas. */
const callStatus = z.enum(CallStatus);

export const callCreateInput = z.object({
  callerExternalId: externalId,
  callerDisplayName: displayName,
  callerMetadata: metadataObject.nullable().optional(),
  targetExternalId: externalId.nullable().optional(),
  targetDisplayName: displayName.nullable().optional(),
  queueName: z.string().trim().min(1).max(100).default('default'),
  priority: z.number().int().min(0).max(100).default(0),
  skills: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  externalId: externalId.nullable().optional(),
  externalMetadata: metadataObject.nullable().optional(),
  notes: z.string().max(2000).nullable().optional(),
});

export const callListQuery = paginationQuery.extend({
  queueName: z.string().max(100).optional(),
  status: callStatus.optional(),
  /** Comma-separated; a call matches when it has every listed skill. */
  skills: z.string().max(500).optional(),
  targetExternalId: externalId.optional(),
});

export const callRingInput = z.object({ agentExternalId: externalId, agentDisplayName: displayName.optional() });
export const callAcceptInput = z.object({ acceptedByExternalId: externalId, acceptedByDisplayName: displayName });
export const callForwardInput = z.object({
  forwardedByExternalId: externalId,
  forwardedToExternalId: externalId,
  targetDisplayName: displayName.optional(),
});
export const callActorInput = z.object({ actorExternalId: externalId.optional() });

export const callResponse = named(
  'Call',
  'A queued call. queuePosition (1-based, null once no longer waiting) is present where computed; room once accepted.',
  z.object({
    id: z.string(),
    tenantId: z.string(),
    roomId: z.string().nullable(),
    callerExternalId: z.string(),
    callerDisplayName: z.string(),
    callerMetadata: storedMetadata,
    targetExternalId: z.string().nullable(),
    targetDisplayName: z.string().nullable(),
    queueName: z.string(),
    priority: z.int(),
    skills: z.array(z.string()),
    status: callStatus,
    ringingExternalId: z.string().nullable(),
    acceptedByExternalId: z.string().nullable(),
    acceptedByDisplayName: z.string().nullable(),
    forwardedToExternalId: z.string().nullable(),
    forwardedByExternalId: z.string().nullable(),
    queuedAt: timestamp,
    ringingAt: nullableTimestamp,
    answeredAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    cancelledAt: nullableTimestamp,
    waitDuration: z.int().nullable(),
    callDuration: z.int().nullable(),
    externalId: z.string().nullable(),
    externalMetadata: storedMetadata,
    notes: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    queuePosition: z.int().nullable().optional(),
    room: roomResponse.nullable(),
  }),
);
export type CallResponse = z.output<typeof callResponse>;
export const callPage = page('CallPage', callResponse, 'calls, next up first (priority, then oldest)');
export const callAcceptedResponse = named(
  'CallAccepted',
  'An accepted call: its room and a token for the caller and the agent.',
  z.object({
    call: callResponse,
    room: roomResponse,
    callerToken: z.string(),
    agentToken: z.string(),
    callerJoinUrl: z.string(),
    agentJoinUrl: z.string(),
    mediaUrl: z.string(),
    participants: z.object({ caller: participantResponse, agent: participantResponse }),
  }),
);
