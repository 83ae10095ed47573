import { z } from 'zod';
import { EgressJobStatus } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import { externalId, named, nullableTimestamp, page, resourceId, timestamp } from '@/lib/domain/shared.schemas';

/** Recordings: request and response schemas. */

/** The room composite's layout, for recordings and live streams alike. */
export const compositeLayout = z.enum(['grid', 'speaker', 'single-speaker']);
export const egressStatus = z.enum(EgressJobStatus);

export const recordingStartInput = z.object({
  createdByExternalId: externalId.optional(),
  /** Layout of the composite: grid (default), speaker, single-speaker; or audioOnly. */
  layout: compositeLayout.optional(),
  audioOnly: z.boolean().default(false),
});
export const recordingListQuery = paginationQuery.extend({ roomId: resourceId.optional() });

export const recordingResponse = named(
  'Recording',
  'A room recording. COMPLETED only once the file is confirmed in storage.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    status: egressStatus,
    preset: z.string().nullable(),
    sizeBytes: z.number().nullable(),
    duration: z.int().nullable(),
    createdByExternalId: z.string().nullable(),
    startedAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    error: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type RecordingResponse = z.output<typeof recordingResponse>;
export const recordingPage = page('RecordingPage', recordingResponse, 'recordings');
export const deletedResponse = named(
  'Deleted',
  'The id of what was deleted.',
  z.object({ id: z.string(), deleted: z.literal(true) }),
);
