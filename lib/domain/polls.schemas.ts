import { z } from 'zod';
import { PollStatus } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import { externalId, named, nullableTimestamp, page, resourceId, timestamp } from '@/lib/domain/shared.schemas';

/**
 * Polls: request and response schemas. The `public*` inputs are the participant surface
 * (/api/v1/polls/public/…): the hosted call UI acting with a participant token, so the actor is the
 * token's participant and the room is the token's room.
 */

/** 2–10 options of up to 200 characters; a question of up to 500. */
const pollBody = {
  question: z.string().trim().min(1).max(500),
  options: z.array(z.string().trim().min(1).max(200)).min(2).max(10),
  isAnonymous: z.boolean().default(false),
  allowMultiple: z.boolean().default(false),
  // A subset of PollStatus: a poll is created as a draft or open, never closed.
  status: z.enum(['DRAFT', 'OPEN'] as const satisfies readonly PollStatus[]).default('DRAFT'),
};
export const pollCreateInput = z.object({ roomId: resourceId, createdByExternalId: externalId, ...pollBody });
export const publicPollCreateInput = z.object(pollBody);
export const voteInput = z.object({
  optionIds: z.array(resourceId).min(1).max(10),
  voterExternalId: externalId.describe(
    "Any user of the tenant, whether or not they joined the room: the tenant's backend vouches for them. One ballot per voter; voting again replaces it.",
  ),
});
export const publicVoteInput = z.object({ optionIds: z.array(resourceId).min(1).max(10) });
export const pollListQuery = paginationQuery.extend({ roomId: resourceId });

export const pollResponse = named(
  'Poll',
  'A poll with live counts. `votes` (who voted for what) only for non-anonymous polls.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    question: z.string(),
    status: z.enum(PollStatus),
    isAnonymous: z.boolean(),
    allowMultiple: z.boolean(),
    totalVotes: z.int().describe('Ballots (voters), not picks.'),
    options: z.array(z.object({ id: z.string(), text: z.string(), order: z.int(), count: z.int() })),
    votes: z.array(z.object({ optionId: z.string(), voterExternalId: z.string() })).optional(),
    createdByExternalId: z.string().nullable(),
    createdAt: timestamp,
    openedAt: nullableTimestamp,
    closedAt: nullableTimestamp,
  }),
);
export type PollResponse = z.output<typeof pollResponse>;
export const pollPage = page('PollPage', pollResponse, 'polls (unpaginated)');
