import { z } from 'zod';
import { EgressJobStatus, RecordingKind } from '@/lib/generated/prisma/enums';
import { paginationQuery } from '@/lib/domain/pagination';
import { externalId, named, nullableTimestamp, page, resourceId, timestamp } from '@/lib/domain/shared.schemas';

/** Recordings: request and response schemas. */

/** The room composite's layout, for recordings and live streams alike. */
export const compositeLayout = z.enum(['grid', 'speaker', 'single-speaker']);
export const egressStatus = z.enum(EgressJobStatus);

export const recordingStartInput = z
  .object({
    createdByExternalId: externalId.optional(),
    /** Layout of the composite: grid (default), speaker, single-speaker; or audioOnly. */
    layout: compositeLayout.optional(),
    audioOnly: z.boolean().default(false),
    participant: z
      .object({ externalUserId: externalId })
      .optional()
      .describe(
        "Record one participant instead of the room: their camera and microphone (MP4), or with audioOnly their microphone alone (Ogg/Opus). They must be in the call. It ends when they leave; their room's participant recordings are transcribed together with speakers (enableAiFeatures).",
      ),
  })
  .refine((input) => !(input.participant && input.layout), {
    message: 'layout is for a room composite; a participant recording has none',
    path: ['layout'],
  });
export const recordingListQuery = paginationQuery.extend({ roomId: resourceId.optional() });

export const recordingResponse = named(
  'Recording',
  'A recording of a room (composite) or of one participant. COMPLETED only once the file is confirmed in storage.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    status: egressStatus,
    kind: z.enum(RecordingKind).describe("COMPOSITE (the room) or PARTICIPANT (one participant's media)."),
    audioOnly: z.boolean(),
    participantId: z.string().nullable().describe('PARTICIPANT: whose media.'),
    sessionId: z.string().nullable().describe('The room session it was started in.'),
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
