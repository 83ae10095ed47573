import { z } from 'zod';
import { named, nullableTimestamp } from '@/lib/domain/shared.schemas';

/**
 * What the call page reads and a host does from the call about the meeting as a whole: its clock,
 * recording and live captions (/api/v1/me/meeting, /me/recording, /me/captions), and a person's
 * rating of it afterwards (/me/rating). Request and response schemas.
 */

/** Why a meeting tool cannot start now: the catalogue code the start would be refused with. */
const blockedBy = z
  .enum([
    'FEATURE_DISABLED',
    'TEST_MODE_MEDIA_DISABLED',
    'PLAN_LIMIT_REACHED',
    'CAPTIONS_NOT_CONFIGURED',
    'INVALID_STATE',
  ])
  .nullable()
  .describe(
    'null when it can start now; else the error code a start would be refused with (the room’s switches, test mode, the plan, an installation without a speech-to-text service, an ended room).',
  );

const tool = z.object({
  /** It runs now (a recording starting or recording; a captions session). */
  active: z.boolean(),
  blockedBy,
});

export const meetingResponse = named(
  'Meeting',
  'The meeting as the call page shows it: when it started, and whether recording and live captions run or could be started by a host from the call.',
  z.object({
    roomId: z.string(),
    /** When this meeting (the room’s current session) began; null before anyone joined. */
    startedAt: nullableTimestamp,
    recording: tool,
    captions: tool,
    /** A completed recording of this room is transcribed (AI features on, a speech-to-text service configured). */
    transcribesRecordings: z.boolean(),
  }),
);

export const recordingSwitchInput = z.object({
  active: z
    .boolean()
    .describe('true starts a recording of the room (as POST /rooms/{id}/recordings/start); false stops it.'),
});

export const captionsSwitchInput = z.object({
  active: z.boolean().describe('true starts live captions (as POST /captions/start); false stops them.'),
  /** BCP 47 language of the speech. */
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'must be a language tag such as en or pt-BR')
    .default('en'),
});

export const ratingInput = z.object({
  rating: z.int().min(1).max(5).describe('1 (bad) to 5 (excellent).'),
});

export const ratingResponse = named(
  'MeetingRating',
  'A participant’s rating of a meeting they were in: one per participant and session, the latest kept.',
  z.object({
    participantId: z.string(),
    sessionId: z.string().nullable(),
    rating: z.int(),
    ratedAt: z.iso.datetime(),
  }),
);
