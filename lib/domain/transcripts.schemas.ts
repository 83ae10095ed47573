import { z } from 'zod';
import { TranscriptStatus } from '@/lib/generated/prisma/enums';
import { named, nullableTimestamp, page, timestamp } from '@/lib/domain/shared.schemas';

/** Transcripts of recordings: response schemas. */
export const transcriptResponse = named(
  'Transcript',
  'A transcript of a completed recording.',
  z.object({
    id: z.string(),
    recordingId: z.string(),
    roomId: z.string(),
    status: z.enum(TranscriptStatus),
    language: z.string().nullable(),
    text: z.string().nullable(),
    segments: z
      .array(z.looseObject({ start: z.number(), end: z.number(), text: z.string(), speaker: z.string().optional() }))
      .nullable(),
    provider: z.string().nullable(),
    error: z.string().nullable(),
    createdAt: timestamp,
    completedAt: nullableTimestamp,
  }),
);
export type TranscriptResponse = z.output<typeof transcriptResponse>;
export const transcriptPage = page('TranscriptPage', transcriptResponse, 'transcripts (unpaginated)');
