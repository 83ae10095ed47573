import { z } from 'zod';
import { paginationQuery } from '@/lib/domain/pagination';

const id = z.string().min(1).max(64);
const externalId = z.string().trim().min(1).max(200);

export const recordingStartInput = z.object({
  createdByExternalId: externalId.optional(),
  /** Layout of the composite: grid (default), speaker, single-speaker; or audioOnly. */
  layout: z.enum(['grid', 'speaker', 'single-speaker']).optional(),
  audioOnly: z.boolean().default(false),
});
export const recordingListQuery = paginationQuery.extend({ roomId: id.optional() });

export const streamStartInput = z.object({
  roomId: id,
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
  layout: z.enum(['grid', 'speaker', 'single-speaker']).optional(),
  createdByExternalId: externalId.optional(),
});

export const ingressCreateInput = z.object({
  roomId: id,
  name: z.string().trim().min(1).max(100),
  inputType: z.enum(['RTMP', 'WHIP']).default('RTMP'),
  participantIdentity: z.string().trim().min(1).max(100),
  participantName: z.string().trim().min(1).max(100),
  createdByExternalId: externalId,
  enableTranscoding: z.boolean().default(true),
});

export const captionsInput = z.object({
  roomId: id,
  /** BCP 47 language of the speech, e.g. en, de, pt-BR. */
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'must be a language tag such as en or pt-BR')
    .default('en'),
  startedByExternalId: externalId.optional(),
});
export const captionsStopInput = z.object({ roomId: id });
