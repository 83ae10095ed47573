import { z } from 'zod';
import { externalId, named, nullableTimestamp, resourceId, timestampInput } from '@/lib/domain/shared.schemas';

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
  'Live captions in a room: the latest session, if any, and whether the captions agent is in the room now.',
  z.object({
    roomId: z.string(),
    /** A captions session runs (started, not stopped, the room not ended). */
    active: z.boolean(),
    /** This installation runs a captions worker (a speech-to-text service is configured). */
    configured: z.boolean(),
    /** The captions agent is in the room now: it joins within a few seconds of start; false while it has not. */
    agentJoined: z.boolean(),
    sessionId: z.string().nullable(),
    language: z.string().nullable(),
    startedAt: nullableTimestamp,
    stoppedAt: nullableTimestamp,
    startedByExternalId: z.string().nullable(),
  }),
);
export type CaptionStatusResponse = z.output<typeof captionStatusResponse>;

export const callCaptionsResponse = named(
  'CallCaptions',
  'Captions in the caller’s room as the call page reads them: whether they run, and the media identity of the captions agent — the only sender whose transcriptions the page shows.',
  z.object({
    active: z.boolean(),
    agentIdentity: z.string().nullable(),
  }),
);

/** The captions worker's final segments (POST /api/v1/captions/segments); bounds as LIVE_TRANSCRIPT_LIMITS. */
export const captionSegmentsInput = z.object({
  segments: z
    .array(
      z.object({
        /** The worker's id for the segment: one sent again is kept once. */
        id: z.string().min(1).max(200),
        /** The speaker's media identity. */
        participantIdentity: z.string().min(1).max(200),
        text: z.string().trim().min(1).max(2_000),
        startedAt: timestampInput,
        endedAt: timestampInput,
      }),
    )
    .min(1)
    .max(50),
});

export const captionSegmentsResponse = named(
  'CaptionSegmentsAccepted',
  "How many of the captions worker's segments the meeting's live transcript took, and how many it dropped (its bound reached, or the room ended).",
  z.object({ accepted: z.int(), dropped: z.int() }),
);
