import { z } from 'zod';
import { RoomStatus, RoomType } from '@/lib/generated/prisma/enums';
import { LANGUAGES } from '@/lib/i18n/languages';
import { paginationQuery } from '@/lib/domain/pagination';
import type { RoomFacts } from '@/lib/domain/join-token';
import {
  displayName,
  externalId,
  metadataObject,
  named,
  nullableTimestamp,
  page,
  storedMetadata,
  timestamp,
  timestampInput,
} from '@/lib/domain/shared.schemas';
import { participantResponse, participantRole } from '@/lib/domain/participants.schemas';

/** Rooms (and joining one): request and response schemas. */
const metadata = metadataObject.nullable();

/**
 * The media layer's egress encoding presets (LiveKit's EncodingOptionsPreset names) a room may
 * record with. PASSTHROUGH is left out: a room composite is always encoded.
 */
const RECORDING_PRESETS = [
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

const roomType = z.enum(RoomType);
const roomStatus = z.enum(RoomStatus);

/** The room's on/off settings: the same fields in requests and in the Room response. */
const roomSwitches = {
  enableRecording: z.boolean(),
  enableChat: z.boolean(),
  enableScreenShare: z.boolean(),
  enableWaitingRoom: z.boolean(),
  enableE2EE: z.boolean(),
  enableAiFeatures: z.boolean(),
  allowPublicJoin: z.boolean(),
};

const roomSettings = {
  maxParticipants: z.number().int().min(1).max(10_000),
  ...roomSwitches,
  recordingPreset: recordingPreset.describe(
    `The egress encoding preset for this room's recordings (default ${DEFAULT_RECORDING_PRESET}).`,
  ),
  autoRecord: z.boolean(),
  scheduledAt: timestampInput.nullable(),
  autoEndAt: timestampInput.nullable(),
  externalId: externalId.nullable(),
  externalType: z.string().trim().min(1).max(100).nullable(),
  externalMetadata: metadata,
};

export const roomCreateInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    createdByExternalId: externalId,
    // A subset of RoomType: CALL rooms come from accepting a call, BREAKOUT rooms from a breakout.
    type: z.enum(['INSTANT', 'SCHEDULED'] as const satisfies readonly RoomType[]).optional(),
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
  status: roomStatus.optional(),
  externalId: externalId.optional(),
  externalType: z.string().max(100).optional(),
});

export const roomResponse = named(
  'Room',
  'A room, with its participants.',
  z.object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    slug: z.string(),
    mediaRoomName: z.string(),
    type: roomType,
    maxParticipants: z.int(),
    ...roomSwitches,
    recordingPreset: recordingPreset.describe(
      `The egress encoding preset recordings of this room use (default ${DEFAULT_RECORDING_PRESET}).`,
    ),
    isLocked: z.boolean(),
    autoRecord: z.boolean(),
    status: roomStatus,
    scheduledAt: nullableTimestamp,
    startedAt: nullableTimestamp,
    autoEndAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    duration: z.int().nullable(),
    mediaSid: z.string().nullable(),
    activeParticipants: z.int(),
    reopenCount: z.int(),
    createdByExternalId: z.string(),
    externalId: z.string().nullable(),
    externalType: z.string().nullable(),
    externalMetadata: storedMetadata,
    createdAt: timestamp,
    updatedAt: timestamp,
    participants: z
      .array(participantResponse)
      .describe(
        'Who is in the room or on their way in (PENDING, WAITING, CONNECTED; not those who left, were removed or denied), in join order, at most 10 (complete for most meetings, and cheap on the join path). activeParticipants says how many are connected; GET /rooms/{id}/participants pages through every participant.',
      ),
  }),
);
export type RoomResponse = z.output<typeof roomResponse>;
export const roomPage = page('RoomPage', roomResponse, 'rooms');

/** The non-private room facts a participant token's metadata carries (join-token.ts; the type keeps the two in step). */
export const roomFactFields = {
  metaVersion: z.int(),
  roomId: z.string(),
  roomName: z.string(),
  enableE2EE: z.boolean(),
  enableRecording: z.boolean(),
  autoRecord: z.boolean(),
  enableAiFeatures: z.boolean(),
  enableChat: z.boolean(),
  enableWaitingRoom: z.boolean(),
} satisfies { [K in keyof RoomFacts]-?: z.ZodType<RoomFacts[K]> };
export const roomInfoResponse = named(
  'RoomInfo',
  'The non-private facts of a room (no credential needed).',
  z.object({
    id: z.string(),
    name: z.string(),
    type: roomType,
    status: roomStatus,
    enableScreenShare: z.boolean(),
    isLocked: z.boolean(),
    scheduledAt: nullableTimestamp,
    ...roomFactFields,
  }),
);

export const joinInput = z.object({
  externalUserId: externalId,
  displayName,
  role: participantRole.default('ATTENDEE'),
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

export const joinResponse = named(
  'JoinResult',
  'Join: a participant token and hosted-UI URL, or (waiting room) an admission URL to poll until a host approves.',
  z.discriminatedUnion('waitingForApproval', [
    z.object({
      token: z.string().describe('The participant token (a media-layer JWT).'),
      mediaUrl: z.string(),
      joinUrl: z.string().describe('The hosted call UI for this participant.'),
      waitingForApproval: z.literal(false),
      participant: participantResponse,
      room: roomResponse,
    }),
    z.object({
      token: z.null(),
      mediaUrl: z.null(),
      joinUrl: z.null(),
      waitingForApproval: z.literal(true),
      admissionUrl: z.string().describe('The hosted waiting page; its fragment holds the admission secret.'),
      participant: participantResponse,
      room: roomResponse,
    }),
  ]),
);
export type JoinResponse = z.output<typeof joinResponse>;

export const muteAllResponse = named(
  'MuteAllResult',
  'How many audio tracks were muted.',
  z.object({ roomId: z.string(), mutedTracks: z.int() }),
);
