import { z } from 'zod';
import { QuestionStatus } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import {
  displayName,
  externalId,
  named,
  nullableTimestamp,
  page,
  resourceId,
  timestamp,
} from '@/lib/domain/shared.schemas';

/**
 * Q&A: request and response schemas. The `public*` inputs are the participant surface
 * (/api/v1/questions/public/…): the hosted call UI acting with a participant token, so the actor
 * is the token's participant and the room is the token's room.
 */
const questionStatus = z.enum(QuestionStatus);
const questionText = z.string().trim().min(1).max(1000);
const answerText = z.string().trim().min(1).max(5000);

export const questionCreateInput = z.object({
  roomId: resourceId,
  text: questionText,
  askerExternalId: externalId,
  askerName: displayName.optional(),
});
export const publicQuestionCreateInput = z.object({ text: questionText });
export const questionListQuery = paginationQuery.extend({
  sort: z.enum(['upvotes', 'recent']).default('upvotes'),
  status: questionStatus.optional(),
});
export const questionRoomListQuery = questionListQuery.extend({ roomId: resourceId });
export const upvoteInput = z.object({ voterExternalId: externalId });
export const answerInput = z.object({ answerText, answeredByExternalId: externalId });
/** A host answering through the hosted UI: the answer text is optional (marking a question answered live). */
export const publicAnswerInput = z.object({ answerText: answerText.optional() });

export const questionResponse = named(
  'Question',
  'A Q&A question.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    text: z.string(),
    status: questionStatus,
    askerExternalId: z.string().nullable(),
    askerName: z.string().nullable(),
    upvoteCount: z.int(),
    answerText: z.string().nullable(),
    answeredByExternalId: z.string().nullable(),
    answeredAt: nullableTimestamp,
    dismissedByExternalId: z.string().nullable(),
    dismissedAt: nullableTimestamp,
    createdAt: timestamp,
  }),
);
export type QuestionResponse = z.output<typeof questionResponse>;
export const questionPage = page('QuestionPage', questionResponse, 'questions (up to 500, in the requested order)');
