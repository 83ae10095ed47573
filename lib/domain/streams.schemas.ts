import { z } from 'zod';
import { externalId, named, nullableTimestamp, resourceId, timestamp } from '@/lib/domain/shared.schemas';
import { compositeLayout, egressStatus } from '@/lib/domain/recordings.schemas';

/** Live streams (RTMP out): request and response schemas. */
export const streamStartInput = z.object({
  roomId: resourceId,
  urls: z
    .array(
      z
        .string()
        .trim()
        .max(2048)
        .regex(/^rtmps?:\/\/[^\s/]+\/\S+$/, 'must be an rtmp:// or rtmps:// URL with a stream key'),
    )
    .min(1)
    .max(5),
  layout: compositeLayout.optional(),
  createdByExternalId: externalId.optional(),
});

export const streamResponse = named(
  'Stream',
  'A live stream (RTMP out). Destinations are masked: stream keys are never stored or returned.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    status: egressStatus,
    destinations: z.array(z.string()),
    createdByExternalId: z.string().nullable(),
    startedAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    duration: z.int().nullable(),
    error: z.string().nullable(),
    createdAt: timestamp,
  }),
);
export type StreamResponse = z.output<typeof streamResponse>;
