import { z } from 'zod';
import { LANGUAGES } from '@/lib/i18n/languages';
import { paginationQuery } from '@/lib/domain/pagination';
import { metadataObject } from '@/lib/domain/metadata.schemas';

/** Request schemas for rooms, participants and breakouts (also the source of the API reference). */
const externalId = z.string().trim().min(1).max(200);
const metadata = metadataObject.nullable();
const timestamp = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/**
 * The media layer's egress encoding presets (LiveKit's EncodingOptionsPreset names) a room may
 * record with. PASSTHROUGH is left out: a room composite is always encoded.
 */
export const RECORDING_PRESETS = [
  'H264_720P_30',
  'H264_720P_60',
  'H264_1080P_30',
  'H264_1080P_60',
  'PORTRAIT_H264_720P_30',
  'PORTRAIT_H264_720P_60',
  'PORTRAIT_H264_1080P_30',
  'PORTRAIT_H264_1080P_60',
] as const;
export type RecordingPreset = (typeof RECORDING_PRESETS)[number];
export const DEFAULT_RECORDING_PRESET: RecordingPreset = 'H264_720P_30';
export const recordingPreset = z.enum(RECORDING_PRESETS);

const roomSettings = {
  maxParticipants: z.number().int().min(1).max(10_000),
  enableRecording: z.boolean(),
  enableChat: z.boolean(),
  enableScreenShare: z.boolean(),
  enableWaitingRoom: z.boolean(),
  enableE2EE: z.boolean(),
  enableAiFeatures: z.boolean(),
  allowPublicJoin: z.boolean(),
  recordingPreset: recordingPreset.describe(
    `The egress encoding preset for this room's recordings (default ${DEFAULT_RECORDING_PRESET}).`,
  ),
  autoRecord: z.boolean(),
  scheduledAt: timestamp.nullable(),
  autoEndAt: timestamp.nullable(),
  externalId: externalId.nullable(),
  externalType: z.string().trim().min(1).max(100).nullable(),
  externalMetadata: metadata,
};

export const roomCreateInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    createdByExternalId: externalId,
    type: z.enum(['INSTANT', 'SCHEDULED']).optional(),
    ...roomSettings,
  })
  .partial({ ...Object.fromEntries(Object.keys(roomSettings).map((k) => [k, true])) } as Record<
    keyof typeof roomSettings,
    true
  >);
export type RoomCreateInput = z.infer<typeof roomCreateInput>;

export const roomUpdateInput = z
  .object({ name: z.string().trim().min(1).max(200), isLocked: z.boolean(), ...roomSettings })
  .partial();
export type RoomUpdateInput = z.infer<typeof roomUpdateInput>;

export const roomListQuery = paginationQuery.extend({
  status: z.enum(['WAITING', 'ACTIVE', 'ENDED']).optional(),
  externalId: externalId.optional(),
  externalType: z.string().max(100).optional(),
});

export const ROLES = ['HOST', 'MODERATOR', 'ATTENDEE', 'VIEWER'] as const;
export const role = z.enum(ROLES);

export const joinInput = z.object({
  externalUserId: externalId,
  displayName: z.string().trim().min(1).max(100),
  role: role.default('ATTENDEE'),
  avatarUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  externalRole: z.string().trim().min(1).max(100).nullable().optional(),
  externalMetadata: metadata.optional(),
  /** Token lifetime; default 6 h. */
  ttlSeconds: z.number().int().min(60).max(86_400).optional(),
  /** The hosted call UI's language, carried as `lang` on the join (or waiting) URL. */
  lang: z
    .enum(LANGUAGES)
    .optional()
    .describe(
      'The hosted call UI language (en, de, es, fr), added to joinUrl (or admissionUrl) as `lang`; else the tenant default, then the browser.',
    ),
});
export type JoinInput = z.infer<typeof joinInput>;

export const actingUserInput = z.object({ actingExternalUserId: externalId });

export const participantUpdateInput = z
  .object({
    role,
    canPublish: z.boolean(),
    canSubscribe: z.boolean(),
    canPublishData: z.boolean(),
    canScreenShare: z.boolean(),
    canRecord: z.boolean(),
    displayName: z.string().trim().min(1).max(100),
  })
  .partial();
export type ParticipantUpdateInput = z.infer<typeof participantUpdateInput>;

export const participantListQuery = paginationQuery.extend({
  connectionState: z.enum(['PENDING', 'WAITING', 'CONNECTED', 'DISCONNECTED', 'DENIED', 'REMOVED']).optional(),
});

export const breakoutCreateInput = z.object({
  name: z.string().trim().min(1).max(100),
  createdByExternalId: externalId,
});
export const breakoutMoveInput = z.object({
  actingExternalUserId: externalId,
  participantId: z.string().min(1).max(64),
});

export const lockInput = z.object({ locked: z.boolean() });
