import type { z } from 'zod';
import type { Room, Tenant } from '@/lib/generated/prisma/client';
import { db } from '@/lib/db';
import { ApiError, invalidState } from '@/lib/errors';
import type { ParticipantCredential } from '@/lib/domain/me';
import { requireModerator } from '@/lib/domain/participants';
import { assertRoomRecordable, minutesThisMonth, startRecording, stopRoomRecording } from '@/lib/domain/recordings';
import { assertCaptionsAllowed, captionStatus, startCaptions, stopCaptions } from '@/lib/domain/captions';
import { transcribesRecordings } from '@/lib/domain/transcripts';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { resolveLimits } from '@/lib/domain/plans';
import { iso } from '@/lib/domain/time';
import type {
  captionsSwitchInput,
  meetingResponse,
  ratingInput,
  ratingResponse,
  recordingSwitchInput,
} from '@/lib/domain/meeting-tools.schemas';

/**
 * The meeting as a whole, from the call: its clock, and a host starting or stopping recording and
 * live captions with their own participant token. Starting goes through the same functions as the
 * tenant API (POST /rooms/{id}/recordings/start, /captions/start), so the room's switches, test
 * mode and the plan refuse exactly as there; the call reads beforehand which of them would refuse
 * (`blockedBy`), so it offers only what can start. After the meeting, a person rates it 1–5.
 */

type Blocked = z.output<typeof meetingResponse>['recording']['blockedBy'];
const BLOCKING_CODES = new Set<string>([
  'FEATURE_DISABLED',
  'TEST_MODE_MEDIA_DISABLED',
  'PLAN_LIMIT_REACHED',
  'CAPTIONS_NOT_CONFIGURED',
  'INVALID_STATE',
]);

/** The code `check` throws (one of the refusals a start gives), or null when it passes. */
async function blockOf(check: () => Promise<void> | void): Promise<Blocked> {
  try {
    await check();
    return null;
  } catch (err) {
    if (err instanceof ApiError && BLOCKING_CODES.has(err.code)) return err.code as Blocked;
    throw err;
  }
}

/** What a recording start would be refused with before it reached the media layer (beginRecording's rules). */
function recordingBlock(tenant: Tenant, room: Room) {
  return blockOf(async () => {
    if (tenant.isTestMode) assertBillableMediaAllowed(tenant, 'recording');
    assertRoomRecordable(room);
    assertBillableMediaAllowed(tenant, 'recording', await minutesThisMonth(tenant.id, 'recording_minutes'));
    if (resolveLimits(tenant.plan, tenant.entitlementOverrides).concurrentRecordings === 0)
      throw new ApiError('PLAN_LIMIT_REACHED', 'Your plan includes no recordings.');
  });
}

/** GET /api/v1/me/meeting: any participant of the room. */
export async function meetingState({ tenant, room }: ParticipantCredential): Promise<z.output<typeof meetingResponse>> {
  const [session, recording, captions] = await Promise.all([
    db().roomSession.findFirst({ where: { roomId: room.id, endedAt: null }, orderBy: { startedAt: 'desc' } }),
    db().recording.findFirst({
      where: { roomId: room.id, status: { in: ['STARTING', 'ACTIVE'] } },
      select: { id: true },
    }),
    db().captionSession.findFirst({ where: { roomId: room.id, status: 'ACTIVE' }, select: { id: true } }),
  ]);
  return {
    roomId: room.id,
    startedAt: iso(session?.startedAt ?? (room.status === 'ACTIVE' ? room.startedAt : null)),
    recording: { active: !!recording, blockedBy: recording ? null : await recordingBlock(tenant, room) },
    captions: {
      active: !!captions,
      blockedBy: captions ? null : await blockOf(() => assertCaptionsAllowed(tenant, room)),
    },
    transcribesRecordings: transcribesRecordings(room, tenant),
  };
}

/** POST /api/v1/me/recording: a host or moderator starts or stops the room's recording. */
export async function switchRecording(
  { tenant, room, participant }: ParticipantCredential,
  input: z.infer<typeof recordingSwitchInput>,
) {
  await requireModerator(room.id, participant.externalUserId);
  if (!input.active) return stopRoomRecording(tenant, room.id);
  return startRecording(tenant, room.id, { createdByExternalId: participant.externalUserId, audioOnly: false });
}

/** POST /api/v1/me/captions: a host or moderator starts or stops live captions. */
export async function switchCaptions(
  { tenant, room, participant }: ParticipantCredential,
  input: z.infer<typeof captionsSwitchInput>,
) {
  await requireModerator(room.id, participant.externalUserId);
  if (input.active)
    return startCaptions(tenant, {
      roomId: room.id,
      language: input.language,
      startedByExternalId: participant.externalUserId,
    });
  const status = await captionStatus(tenant, room.id);
  if (!status.active) throw invalidState('Captions are not running in this room.');
  return stopCaptions(tenant, room.id);
}

/**
 * POST /api/v1/me/rating: someone who was in the meeting rates it (the end screen). One rating per
 * participant and session, the latest kept; a removed participant may rate too. Someone who never
 * got in (still waiting, refused) has no meeting to rate.
 */
export async function rateMeeting(
  { room, participant }: ParticipantCredential,
  input: z.infer<typeof ratingInput>,
): Promise<z.output<typeof ratingResponse>> {
  if (!participant.joinedAt) throw invalidState('Only someone who was in the meeting can rate it.');
  const session = await db().roomSession.findFirst({
    where: { roomId: room.id, startedAt: { lte: new Date() } },
    orderBy: { startedAt: 'desc' },
    select: { id: true },
  });
  const sessionId = session?.id ?? null;
  const existing = await db().meetingRating.findFirst({
    where: { participantId: participant.id, sessionId },
    select: { id: true },
  });
  const saved = existing
    ? await db().meetingRating.update({ where: { id: existing.id }, data: { rating: input.rating } })
    : await db().meetingRating.create({
        data: {
          tenantId: participant.tenantId,
          roomId: room.id,
          participantId: participant.id,
          sessionId,
          rating: input.rating,
        },
      });
  return {
    participantId: saved.participantId,
    sessionId: saved.sessionId,
    rating: saved.rating,
    ratedAt: saved.updatedAt.toISOString(),
  };
}

/** The console's room page: each participant's latest rating of this room's meetings, and the average. */
export async function roomRatings(tenantId: string, roomId: string) {
  const rows = await db().meetingRating.findMany({
    where: { tenantId, roomId },
    orderBy: { updatedAt: 'desc' },
    select: { participantId: true, rating: true },
    take: 2000,
  });
  const latest = new Map<string, number>();
  for (const r of rows) if (!latest.has(r.participantId)) latest.set(r.participantId, r.rating);
  const values = [...latest.values()];
  return {
    byParticipant: latest,
    count: values.length,
    average: values.length ? values.reduce((s, v) => s + v, 0) / values.length : null,
  };
}
