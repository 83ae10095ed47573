import type { Recording, Room, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { ApiError, invalidState, notFound } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { storage } from '@/lib/storage';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { RUNNING_EGRESS, startEgressWithinLimits } from '@/lib/domain/recordings-limits';
import { addUsage } from '@/lib/domain/usage';
import { emitEvent } from '@/lib/events/outbox';
import { queueTranscriptIfWanted } from '@/lib/domain/transcripts';
import { openSessionId } from '@/lib/domain/sessions';
import type { recordingListQuery, recordingStartInput, RecordingResponse } from '@/lib/domain/recordings.schemas';
import { iso, secondsBetween } from '@/lib/domain/time';

/**
 * Recordings: a room-composite egress to a file, or one participant's (participant egress; their
 * microphone alone through track egress). Statuses: STARTING (egress requested) → ACTIVE
 * (egress.started) → STOPPING (stop requested) → COMPLETED | FAILED. COMPLETED, and the
 * recording.completed event, come only after the file is confirmed in storage with a size:
 * egress.ended alone says only that egress stopped.
 */
function recordingView(r: Recording): RecordingResponse {
  return {
    id: r.id,
    roomId: r.roomId,
    status: r.status,
    kind: r.kind,
    audioOnly: r.audioOnly,
    participantId: r.participantId,
    sessionId: r.sessionId,
    preset: r.preset,
    sizeBytes: r.sizeBytes === null ? null : Number(r.sizeBytes),
    duration: r.duration,
    createdByExternalId: r.createdByExternalId,
    startedAt: iso(r.startedAt),
    endedAt: iso(r.endedAt),
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export { minutesThisMonth } from '@/lib/domain/recordings-limits';

/** The room's own rules for recording it (the plan's are checked when the recording starts). */
export function assertRoomRecordable(room: Room) {
  if (!room.enableRecording)
    throw new ApiError('FEATURE_DISABLED', 'Recording is not enabled for this room (enableRecording).');
  // Egress composes what it receives; with end-to-end encryption it receives only ciphertext.
  if (room.enableE2EE)
    throw new ApiError(
      'FEATURE_DISABLED',
      'End-to-end encrypted rooms cannot be recorded: the media layer cannot decrypt them.',
    );
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
}

export async function startRecording(tenant: Tenant, roomId: string, input: z.infer<typeof recordingStartInput>) {
  const room = await findRoom(tenant.id, roomId);
  if (input.participant)
    return recordingView(
      await beginParticipantRecording(tenant, room, { ...input, externalUserId: input.participant.externalUserId }),
    );
  return recordingView(await beginRecording(tenant, room, input));
}

/**
 * One participant's recording: their camera and microphone through the media layer's participant
 * egress (MP4), or their microphone alone through its track egress (Ogg/Opus, as published). The
 * room's rules and the plan's limits are a composite's; one at a time per participant (CONFLICT).
 * It ends when they leave (their track is unpublished), or when stopped.
 */
async function beginParticipantRecording(
  tenant: Tenant,
  room: Room,
  input: { externalUserId: string; createdByExternalId?: string; audioOnly?: boolean },
) {
  if (tenant.isTestMode) assertBillableMediaAllowed(tenant, 'recording');
  assertRoomRecordable(room);
  const participant = await db().participant.findUnique({
    where: { roomId_externalUserId: { roomId: room.id, externalUserId: input.externalUserId } },
  });
  if (!participant) throw notFound('Participant');
  if (participant.connectionState !== 'CONNECTED')
    throw invalidState(`${participant.displayName} is not in the call (${participant.connectionState}).`);
  const media = mediaFor(tenant);
  let microphone: string | undefined;
  if (input.audioOnly) {
    const inRoom = (await media.listParticipants(room.mediaRoomName)).find(
      (p) => p.identity === participant.mediaIdentity,
    );
    microphone = inRoom?.tracks.find((t) => t.type === 'AUDIO' && t.source === 'MICROPHONE')?.sid;
    if (!microphone) throw invalidState(`${participant.displayName} has no microphone published to record.`);
  }
  const key = `recordings/${tenant.id}/${room.id}/${participant.id}-${Date.now().toString(36)}.${input.audioOnly ? 'ogg' : 'mp4'}`;
  const store = storage();
  const sessionId = await openSessionId(room.id);
  return startEgressWithinLimits({
    tenant,
    kind: 'recording',
    async check(tx) {
      const running = await tx.recording.findFirst({
        where: { participantId: participant.id, status: { in: [...RUNNING_EGRESS] } },
        select: { id: true },
      });
      if (running)
        throw new ApiError('CONFLICT', `${participant.displayName} is already being recorded (${running.id}).`);
    },
    async start() {
      await store.ensure?.(key);
      const file = { filepath: store.egressFilepath(key), s3: store.egressS3?.() };
      return microphone
        ? media.startTrackEgress(room.mediaRoomName, microphone, { file })
        : media.startParticipantEgress(
            room.mediaRoomName,
            participant.mediaIdentity,
            { file },
            {
              encodingPreset: room.recordingPreset,
            },
          );
    },
    save: (mediaEgressId, tx) =>
      tx.recording.create({
        data: {
          tenantId: tenant.id,
          roomId: room.id,
          mediaEgressId,
          status: 'STARTING',
          kind: 'PARTICIPANT',
          audioOnly: !!input.audioOnly,
          participantIdentity: participant.mediaIdentity,
          participantId: participant.id,
          sessionId,
          storageKey: key,
          preset: input.audioOnly ? null : room.recordingPreset,
          createdByExternalId: input.createdByExternalId ?? null,
        },
      }),
  });
}

/**
 * Starts a room's recording (the API's start, and autoRecord): test mode, the room's rules, then
 * under the tenant's egress lock the plan's limits and one recording per room at a time
 * (CONFLICT), the egress and its row together (recordings-limits.ts).
 */
export async function beginRecording(
  tenant: Tenant,
  room: Room,
  input: { createdByExternalId?: string; layout?: string; audioOnly?: boolean },
) {
  if (tenant.isTestMode) assertBillableMediaAllowed(tenant, 'recording'); // refused before anything else
  assertRoomRecordable(room);
  const key = `recordings/${tenant.id}/${room.id}/${Date.now().toString(36)}.${input.audioOnly ? 'ogg' : 'mp4'}`;
  const store = storage();
  const sessionId = await openSessionId(room.id);
  return startEgressWithinLimits({
    tenant,
    kind: 'recording',
    async check(tx) {
      const running = await tx.recording.findFirst({
        where: { roomId: room.id, kind: 'COMPOSITE', status: { in: [...RUNNING_EGRESS] } },
        select: { id: true },
      });
      if (running) throw new ApiError('CONFLICT', `The room is already being recorded (${running.id}).`);
    },
    async start() {
      await store.ensure?.(key);
      return mediaFor(tenant).startRoomCompositeEgress(
        room.mediaRoomName,
        { file: { filepath: store.egressFilepath(key), s3: store.egressS3?.() } },
        { layout: input.layout, encodingPreset: room.recordingPreset, audioOnly: input.audioOnly },
      );
    },
    save: (mediaEgressId, tx) =>
      tx.recording.create({
        data: {
          tenantId: tenant.id,
          roomId: room.id,
          mediaEgressId,
          status: 'STARTING',
          audioOnly: !!input.audioOnly,
          sessionId,
          storageKey: key,
          preset: room.recordingPreset,
          createdByExternalId: input.createdByExternalId ?? null,
        },
      }),
  });
}

async function findRecording(tenantId: string, id: string) {
  const r = await db().recording.findFirst({ where: { id, tenantId } });
  if (!r) throw notFound('Recording');
  return r;
}

export async function stopRecording(tenant: Tenant, id: string) {
  const r = await findRecording(tenant.id, id);
  if (r.status !== 'STARTING' && r.status !== 'ACTIVE') throw invalidState(`The recording is ${r.status}.`);
  await mediaFor(tenant).stopEgress(r.mediaEgressId);
  return recordingView(await db().recording.update({ where: { id: r.id }, data: { status: 'STOPPING' } }));
}

export async function stopRoomRecording(tenant: Tenant, roomId: string) {
  await findRoom(tenant.id, roomId);
  const r = await db().recording.findFirst({
    where: { tenantId: tenant.id, roomId, kind: 'COMPOSITE', status: { in: ['STARTING', 'ACTIVE'] } },
    orderBy: { createdAt: 'desc' },
  });
  if (!r) throw invalidState('The room is not being recorded.');
  return stopRecording(tenant, r.id);
}

export async function getRecording(tenant: Tenant, id: string) {
  return recordingView(await findRecording(tenant.id, id));
}

export async function listRecordings(tenant: Tenant, query: z.infer<typeof recordingListQuery>) {
  if (query.roomId) await findRoom(tenant.id, query.roomId);
  const page = pageArgs(query);
  const rows = await db().recording.findMany({
    where: { tenantId: tenant.id, ...(query.roomId ? { roomId: query.roomId } : {}), ...page.where },
    orderBy: page.orderBy,
    take: page.take,
  });
  return toPage(rows, query, recordingView);
}

/** A recording's file for download: the stream and what a response needs to describe it. */
interface RecordingFile {
  body: ReadableStream<Uint8Array>;
  contentType: 'audio/ogg' | 'video/mp4';
  size: number;
  filename: string;
}

/** The file of a recording (authenticated with the tenant key); only COMPLETED recordings have one. */
export async function recordingFile(tenant: Tenant, id: string): Promise<RecordingFile> {
  const r = await findRecording(tenant.id, id);
  if (r.status !== 'COMPLETED')
    throw invalidState(`The recording is ${r.status}; only a COMPLETED recording can be downloaded.`);
  const stat = await storage().stat(r.storageKey);
  if (!stat) throw notFound('Recording file');
  return {
    body: await storage().read(r.storageKey),
    contentType: r.storageKey.endsWith('.ogg') ? 'audio/ogg' : 'video/mp4',
    size: stat.size,
    filename: `recording-${r.id}${r.storageKey.slice(r.storageKey.lastIndexOf('.'))}`,
  };
}

/** Deletes the storage object, then the row. Deleting again is 404. */
export async function deleteRecording(tenant: Tenant, id: string) {
  const r = await findRecording(tenant.id, id);
  if (r.status === 'STARTING' || r.status === 'ACTIVE') throw invalidState('Stop the recording before deleting it.');
  await storage().delete(r.storageKey);
  await db().recording.delete({ where: { id: r.id } });
  return { id: r.id, deleted: true as const };
}

/** egress_started / egress_ended as the media layer reports them, for a recording or a stream. */
export interface EgressEvent {
  kind: 'started' | 'ended';
  egressId: string;
  /** The media layer's egress status, e.g. EGRESS_COMPLETE. */
  status: string;
  error: string;
  /** When the egress's file begins, as the media layer reports it on the end (its time 0). */
  fileStartedAt?: Date | null;
  at: Date;
}

/**
 * egress.started / egress.ended for a recording (called from the media webhook handler).
 * Returns null when the egress is not a recording, else the transcript to run (if any).
 */
export async function onRecordingEgress(
  { kind, egressId, status: egressStatus, error, at, fileStartedAt }: EgressEvent,
  { tx }: { tx: Tx },
): Promise<{ transcriptId: string | null } | null> {
  // Locked first: a started and an ended of one egress applied at once must not undo each other.
  await tx.$executeRaw`SELECT 1 FROM "Recording" WHERE "mediaEgressId" = ${egressId} FOR UPDATE`;
  const r = await tx.recording.findUnique({ where: { mediaEgressId: egressId } });
  if (!r) return null;
  if (kind === 'started') {
    // A stop requested meanwhile (STOPPING) stays so; the start time is kept either way.
    await tx.recording.update({
      where: { id: r.id },
      data: { status: r.status === 'STARTING' ? 'ACTIVE' : r.status, startedAt: r.startedAt ?? at },
    });
    return { transcriptId: null };
  }
  if (r.status === 'COMPLETED' || r.status === 'FAILED') return { transcriptId: null };
  const file = egressStatus === 'EGRESS_COMPLETE' ? await storage().stat(r.storageKey) : null;
  // A participant recording's start is its file's: the speakers' recordings are placed on one timeline by it.
  const startedAt = r.kind === 'PARTICIPANT' && fileStartedAt ? fileStartedAt : r.startedAt;
  const duration = secondsBetween(startedAt, at);
  if (file && file.size > 0) {
    const completed = await tx.recording.update({
      where: { id: r.id },
      // error keeps why Convene stopped it, if it did (the month's minutes used up).
      data: { status: 'COMPLETED', startedAt, endedAt: at, sizeBytes: BigInt(file.size), duration, error: r.error },
    });
    await emitEvent({
      tx,
      tenantId: r.tenantId,
      name: 'recording.completed',
      data: { recordingId: r.id, roomId: r.roomId, sizeBytes: file.size, duration },
    });
    if (duration) addUsage({ tenantId: r.tenantId, metric: 'recording_minutes', amount: Math.ceil(duration / 60), at });
    return { transcriptId: await queueTranscriptIfWanted(completed, { tx }) };
  } else {
    const failure =
      egressStatus !== 'EGRESS_COMPLETE'
        ? error || `egress ended ${egressStatus}`
        : 'the recording file is missing or empty in storage';
    const reason = r.error ? `${r.error} ${failure}` : failure;
    const failed = await tx.recording.update({
      where: { id: r.id },
      data: { status: 'FAILED', endedAt: at, duration, error: reason },
    });
    await emitEvent({
      tx,
      tenantId: r.tenantId,
      name: 'recording.failed',
      data: { recordingId: r.id, roomId: r.roomId, error: reason },
    });
    // The room's other participant recordings may have waited for this one to end.
    if (r.kind === 'PARTICIPANT') return { transcriptId: await queueTranscriptIfWanted(failed, { tx }) };
  }
  return { transcriptId: null };
}
