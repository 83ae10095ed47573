import { z } from 'zod';
import { externalId, named, nullableTimestamp, resourceId } from '@/lib/domain/shared.schemas';

/** Live captions: request and response schemas. */
export const captionsInput = z.object({
  roomId: resourceId,
  /** BCP 47 language of the speech, e.g. en, de, pt-BR. */
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'must be a language tag such as en or pt-BR')
    .default('en'),
  startedByExternalId: externalId.optional(),
});
export const captionsStopInput = z.object({ roomId: resourceId });

export const captionStatusResponse = named(
  'CaptionStatus',
  'Live captions in a room: the latest session, if any.',
  z.object({
    roomId: z.string(),
    active: z.boolean(),
    sessionId: z.string().nullable(),
    language: z.string().nullable(),
    startedAt: nullableTimestamp,
    stoppedAt: nullableTimestamp,
    startedByExternalId: z.string().nullable(),
  }),
);
export type CaptionStatusResponse = z.output<typeof captionStatusResponse>;
