import type { Recording, Room, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { ApiError, invalidState, notFound } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { storage } from '@/lib/storage';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { addUsage } from '@/lib/domain/usage';
import { emitEvent } from '@/lib/events/outbox';
import { queueTranscriptIfWanted } from '@/lib/domain/transcripts';
import type { recordingListQuery, recordingStartInput, RecordingResponse } from '@/lib/domain/recordings.schemas';
import { iso, secondsBetween } from '@/lib/domain/time';

/**
 * Recordings: a room-composite egress to a file. Statuses: STARTING (egress requested) → ACTIVE
 * (egress.started) → STOPPING (stop requested) → COMPLETED | FAILED. COMPLETED, and the
 * recording.completed event, come only after the file is confirmed in storage with a size:
 * egress.ended alone says only that egress stopped.
 */
function recordingView(r: Recording): RecordingResponse {
  return {
    id: r.id,
    roomId: r.roomId,
    status: r.status,
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

/** The checks every billable egress shares, in order: test mode, plan, room state. */
export async function assertCanRecord(tenant: Tenant, room: Room) {
  const used = await minutesThisMonth(tenant.id, 'recording_minutes');
  assertBillableMediaAllowed(tenant, 'recording', used);
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

export async function minutesThisMonth(tenantId: string, metric: string, now = new Date()) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const rows = await db().usageCounter.findMany({ where: { tenantId, metric, day: { gte: monthStart } } });
  return rows.reduce((sum, r) => sum + Number(r.value), 0);
}

export async function startRecording(tenant: Tenant, roomId: string, input: z.infer<typeof recordingStartInput>) {
  const room = await findRoom(tenant.id, roomId);
  await assertCanRecord(tenant, room);
  const running = await db().recording.findFirst({
    where: { roomId: room.id, status: { in: ['STARTING', 'ACTIVE', 'STOPPING'] } },
  });
  if (running) throw new ApiError('CONFLICT', `The room is already being recorded (${running.id}).`);
  return recordingView(await beginRecording(tenant, room, input));
}

/** Media layer first, then the row: a media failure leaves nothing behind. */
export async function beginRecording(
  tenant: Tenant,
  room: Room,
  input: { createdByExternalId?: string; layout?: string; audioOnly?: boolean },
) {
  const key = `recordings/${tenant.id}/${room.id}/${Date.now().toString(36)}.${input.audioOnly ? 'ogg' : 'mp4'}`;
  const store = storage();
  await store.ensure?.(key);
  const egress = await mediaFor(tenant).startRoomCompositeEgress(
    room.mediaRoomName,
    { file: { filepath: store.egressFilepath(key), s3: store.egressS3?.() } },
    { layout: input.layout, encodingPreset: room.recordingPreset, audioOnly: input.audioOnly },
  );
  return db().recording.create({
    data: {
      tenantId: tenant.id,
      roomId: room.id,
      mediaEgressId: egress.egressId,
      status: 'STARTING',
      storageKey: key,
      preset: room.recordingPreset,
      createdByExternalId: input.createdByExternalId ?? null,
    },
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
    where: { tenantId: tenant.id, roomId, status: { in: ['STARTING', 'ACTIVE'] } },
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
  at: Date;
}

/**
 * egress.started / egress.ended for a recording (called from the media webhook handler).
 * Returns null when the egress is not a recording, else the transcript to run (if any).
 */
export async function onRecordingEgress(
  { kind, egressId, status: egressStatus, error, at }: EgressEvent,
  { tx }: { tx: Tx },
): Promise<{ transcriptId: string | null } | null> {
  const r = await tx.recording.findUnique({ where: { mediaEgressId: egressId } });
  if (!r) return null;
  if (kind === 'started') {
    await tx.recording.update({ where: { id: r.id }, data: { status: 'ACTIVE', startedAt: r.startedAt ?? at } });
    return { transcriptId: null };
  }
  if (r.status === 'COMPLETED' || r.status === 'FAILED') return { transcriptId: null };
  const file = egressStatus === 'EGRESS_COMPLETE' ? await storage().stat(r.storageKey) : null;
  const duration = secondsBetween(r.startedAt, at);
  if (file && file.size > 0) {
    await tx.recording.update({
      where: { id: r.id },
      data: { status: 'COMPLETED', endedAt: at, sizeBytes: BigInt(file.size), duration, error: null },
    });
    await emitEvent({
      tx,
      tenantId: r.tenantId,
      name: 'recording.completed',
      data: { recordingId: r.id, roomId: r.roomId, sizeBytes: file.size, duration },
    });
    if (duration) addUsage({ tenantId: r.tenantId, metric: 'recording_minutes', amount: Math.ceil(duration / 60), at });
    return { transcriptId: await queueTranscriptIfWanted(r, { tx }) };
  } else {
    const reason =
      egressStatus !== 'EGRESS_COMPLETE'
        ? error || `egress ended ${egressStatus}`
        : 'the recording file is missing or empty in storage';
    await tx.recording.update({
      where: { id: r.id },
      data: { status: 'FAILED', endedAt: at, duration, error: reason },
    });
    await emitEvent({
      tx,
      tenantId: r.tenantId,
      name: 'recording.failed',
      data: { recordingId: r.id, roomId: r.roomId, error: reason },
    });
  }
  return { transcriptId: null };
}
