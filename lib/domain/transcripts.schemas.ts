import { z } from 'zod';
import { TranscriptSource, TranscriptStatus } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import { named, nullableTimestamp, page, resourceId, timestamp } from '@/lib/domain/shared.schemas';
import { TRANSCRIPT_FORMATS } from '@/lib/domain/transcripts-formats';

/** Transcripts: request and response schemas. */
export const transcriptFormat = z
  .enum(Object.keys(TRANSCRIPT_FORMATS) as [keyof typeof TRANSCRIPT_FORMATS])
  .describe(
    'json (default), vtt (WebVTT, speakers as voice spans), srt (SubRip, "Name: text") or txt ("[hh:mm:ss] Name: text"). Overrides the Accept header (text/vtt, application/x-subrip, text/plain, application/json).',
  );
export const transcriptQuery = z.object({ format: transcriptFormat.optional() });

export const transcriptListQuery = paginationQuery.extend({
  roomId: resourceId.optional(),
  sessionId: resourceId.optional(),
  source: z.enum(TranscriptSource).optional(),
});

const segment = z.object({
  start: z.number().describe("Seconds from the transcript's start (startedAt)."),
  end: z.number(),
  text: z.string(),
  speaker: z.string().nullable().describe("The speaker's display name; null in a composite recording's transcript."),
  participantId: z.string().nullable().optional(),
  externalUserId: z.string().nullable().optional(),
});

const speaker = z.object({
  name: z.string(),
  participantId: z.string().nullable(),
  externalUserId: z.string().nullable(),
});

export const transcriptResponse = named(
  'Transcript',
  'A transcript: of a composite recording (no speakers), of participant recordings (each speaker transcribed on their own audio) or of the live captions. Also served as WebVTT, SRT or text (?format= or Accept).',
  z.object({
    id: z.string(),
    recordingId: z.string().nullable().describe('The composite recording it was made from (RECORDING).'),
    recordingIds: z.array(z.string()).describe('The participant recordings it was made from (PARTICIPANT_RECORDINGS).'),
    roomId: z.string(),
    sessionId: z.string().nullable().describe('The room session (meeting) it covers.'),
    source: z.enum(TranscriptSource),
    status: z
      .enum(TranscriptStatus)
      .describe(
        'LIVE: captions are adding to it; PENDING → PROCESSING → COMPLETED | FAILED (a provider failure is retried with backoff while nextAttemptAt is set).',
      ),
    language: z.string().nullable(),
    text: z.string().nullable(),
    startedAt: nullableTimestamp.describe("The wall-clock time of the segments' second 0."),
    segments: z.array(segment).nullable(),
    speakers: z.array(speaker).describe('Everyone who speaks in it, in order of first words.'),
    provider: z.string().nullable().describe('The speech-to-text service (its host).'),
    model: z.string().nullable().describe('The speech-to-text model.'),
    error: z.string().nullable(),
    attempts: z.int(),
    nextAttemptAt: nullableTimestamp,
    createdAt: timestamp,
    completedAt: nullableTimestamp,
  }),
);
export type TranscriptResponse = z.output<typeof transcriptResponse>;
export const transcriptPage = page('TranscriptPage', transcriptResponse, 'transcripts');

export const transcriptCreateInput = z.object({
  recordingIds: z
    .array(resourceId)
    .min(1)
    .max(50)
    .describe(
      'One COMPLETED composite recording, or COMPLETED participant recordings of one room (each speaker transcribed on their own audio).',
    ),
});
