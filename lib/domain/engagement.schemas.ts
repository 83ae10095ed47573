import { z } from 'zod';
import { paginationQuery } from '@/lib/domain/pagination';
import { metadataObject } from '@/lib/domain/metadata.schemas';

/** Request schemas for call queues, polls and questions. */
const externalId = z.string().trim().min(1).max(200);
const displayName = z.string().trim().min(1).max(100);
const id = z.string().min(1).max(64);

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

export const CALL_STATUSES = ['QUEUED', 'RINGING', 'ACCEPTED', 'ENDED', 'CANCELLED', 'MISSED'] as const;

export const callListQuery = paginationQuery.extend({
  queueName: z.string().max(100).optional(),
  status: z.enum(CALL_STATUSES).optional(),
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

/** Polls: 2–10 options of up to 200 characters; a question of up to 500. */
const pollBody = {
  question: z.string().trim().min(1).max(500),
  options: z.array(z.string().trim().min(1).max(200)).min(2).max(10),
  isAnonymous: z.boolean().default(false),
  allowMultiple: z.boolean().default(false),
  status: z.enum(['DRAFT', 'OPEN']).default('DRAFT'),
};
export const pollCreateInput = z.object({ roomId: id, createdByExternalId: externalId, ...pollBody });
export const publicPollCreateInput = z.object(pollBody);
export const actorInput = z.object({ actorExternalId: externalId });
export const voteInput = z.object({
  optionIds: z.array(id).min(1).max(10),
  voterExternalId: externalId.describe(
    "Any user of the tenant, whether or not they joined the room: the tenant's backend vouches for them. One ballot per voter; voting again replaces it.",
  ),
});
export const publicVoteInput = z.object({ optionIds: z.array(id).min(1).max(10) });
export const roomScopedQuery = z.object({ roomId: id });
export const roomPageQuery = paginationQuery.extend({ roomId: id });

export const questionCreateInput = z.object({
  roomId: id,
  text: z.string().trim().min(1).max(1000),
  askerExternalId: externalId,
  askerName: displayName.optional(),
});
export const publicQuestionCreateInput = z.object({ text: z.string().trim().min(1).max(1000) });
export const questionListQuery = paginationQuery.extend({
  sort: z.enum(['upvotes', 'recent']).default('upvotes'),
  status: z.enum(['OPEN', 'ANSWERED', 'DISMISSED']).optional(),
});
export const questionRoomListQuery = questionListQuery.extend({ roomId: id });
export const upvoteInput = z.object({ voterExternalId: externalId });
export const answerInput = z.object({
  answerText: z.string().trim().min(1).max(5000),
  answeredByExternalId: externalId,
});
/** A host answering through the hosted UI: the answer text is optional (marking a question answered live). */
export const publicAnswerInput = z.object({ answerText: z.string().trim().min(1).max(5000).optional() });
