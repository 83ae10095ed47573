import type { Recording, Room, Tenant, Transcript } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { ApiError, invalidState, notFound } from '@/lib/errors';
import { storage } from '@/lib/storage';
import { ProviderError, speechToText, type SpeechToText } from '@/lib/stt';
import { speechPieces } from '@/lib/speech-pieces';
import { config } from '@/lib/config';
import { emitEvent } from '@/lib/events/outbox';
import { log } from '@/lib/log';
import { enqueueNotesJob } from '@/lib/runtime/notes-jobs';
import { findRoom } from '@/lib/domain/rooms';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { minutesThisMonth } from '@/lib/domain/recordings-limits';
import { addUsage } from '@/lib/domain/usage';
import { queueSummaryIfWanted } from '@/lib/domain/summaries';
import type { SpeakerSegment, StoredSegment } from '@/lib/domain/transcripts-formats';
import { transcriptView } from '@/lib/domain/transcript-reads';
import { dueNotesJobs, NOTES_JOBS_PER_SWEEP, stoppedNotesJob } from '@/lib/domain/notes-sweep';

/**
 * Transcripts, from three sources:
 *
 * - RECORDING: a completed composite recording's mixed audio (no speakers), made when it
 *   completes in a room with enableAiFeatures.
 * - PARTICIPANT_RECORDINGS: each participant recording's audio transcribed on its own and merged
 *   into one timeline, each segment with its speaker (display name, externalUserId). Made when a
 *   room's participant recordings have all ended (the last one to end queues it), from those not
 *   transcribed yet; each recording's segments are placed by when its file begins.
 * - CAPTIONS: what the captions worker transcribed per speaker during the meeting (each final
 *   segment sent to POST /api/v1/captions/segments), kept LIVE while the meeting goes on and
 *   completed when the room ends — notes with no second transcription.
 *
 * PENDING → PROCESSING → COMPLETED (transcript.ready {transcriptId, recordingId, roomId,
 * sessionId, source}, then a summary if the room wants one) | FAILED with the reason. A provider's
 * passing failure (timeout, 429, 5xx, unreachable) is retried with backoff (nextAttemptAt) up to
 * TRANSCRIPT_RETRY.attempts tries; a refusal that would be the same again is not. Never in an
 * end-to-end encrypted room, never for a test-mode tenant, only with enableAiFeatures, within the
 * plan's transcriptionMinutesPerMonth.
 */
export const TRANSCRIPT_RETRY = {
  attempts: 5,
  /** The first retry after this long; each next one waits twice as long, at most maxDelaySeconds. */
  firstDelaySeconds: 30,
  maxDelaySeconds: 30 * 60,
};

export function retryDelaySeconds(attempt: number) {
  return Math.min(TRANSCRIPT_RETRY.maxDelaySeconds, TRANSCRIPT_RETRY.firstDelaySeconds * 2 ** (attempt - 1));
}

/** Whether a completed recording of this room is transcribed (the call tells its host so). */
export function transcribesRecordings(
  room: Pick<Room, 'enableAiFeatures' | 'enableE2EE'>,
  tenant: Pick<Tenant, 'isTestMode'>,
): boolean {
  return room.enableAiFeatures && !room.enableE2EE && !tenant.isTestMode && !!speechToText();
}

/**
 * Throws what making a transcript in this room now is refused with: not configured, a test-mode
 * tenant, AI off, end-to-end encryption, the month's transcription minutes used up.
 */
export async function assertTranscriptionAllowed(
  tenant: Tenant,
  room: Pick<Room, 'enableAiFeatures' | 'enableE2EE'>,
  { tx = db() }: { tx?: Tx } = {},
) {
  if (!speechToText())
    throw new ApiError(
      'TRANSCRIPTION_NOT_CONFIGURED',
      'Transcripts are not available here: no speech-to-text service is configured (STT_BASE_URL).',
    );
  if (tenant.isTestMode) assertBillableMediaAllowed(tenant, 'transcripts');
  if (room.enableE2EE)
    throw new ApiError(
      'FEATURE_DISABLED',
      'End-to-end encrypted rooms are never transcribed: their media cannot be read by the server.',
    );
  if (!room.enableAiFeatures)
    throw new ApiError('FEATURE_DISABLED', 'Transcripts need the room to opt in to AI features (enableAiFeatures).');
  assertBillableMediaAllowed(
    tenant,
    'transcripts',
    await minutesThisMonth(tenant.id, 'transcription_minutes', new Date(), { tx }),
  );
}

/** The refusal as a reason for a transcript made FAILED (automatic ones), or null if allowed. */
async function refusal(tenant: Tenant, room: Room, { tx }: { tx: Tx }) {
  try {
    await assertTranscriptionAllowed(tenant, room, { tx });
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

// ───────────────────────────── queued from recordings ─────────────────────────────

/**
 * Called in the transaction that ends a recording (completed or failed); returns the transcript
 * to run, if any. A composite recording is transcribed alone; participant recordings together,
 * once the room's last running one has ended.
 */
export async function queueTranscriptIfWanted(
  recording: Pick<Recording, 'id' | 'tenantId' | 'roomId' | 'kind' | 'status' | 'startedAt' | 'sessionId'>,
  { tx }: { tx: Tx },
): Promise<string | null> {
  if (recording.kind === 'PARTICIPANT') return queueSpeakerTranscriptIfDue(recording.roomId, { tx });
  if (recording.status !== 'COMPLETED') return null;
  const room = await tx.room.findUniqueOrThrow({ where: { id: recording.roomId }, include: { tenant: true } });
  if (!transcribesRecordings(room, room.tenant)) return null;
  const refused = await refusal(room.tenant, room, { tx });
  const t = await tx.transcript.create({
    data: {
      tenantId: recording.tenantId,
      recordingId: recording.id,
      roomId: recording.roomId,
      sessionId: recording.sessionId,
      source: 'RECORDING',
      status: refused ? 'FAILED' : 'PENDING',
      error: refused?.message ?? null,
      startedAt: recording.startedAt,
    },
  });
  return refused ? null : t.id;
}

/**
 * The speaker-attributed transcript of a room's participant recordings: once none of them runs,
 * the completed ones not yet transcribed are. Serialised per room, so two recordings ending at once
 * make one transcript, not none.
 */
async function queueSpeakerTranscriptIfDue(roomId: string, { tx }: { tx: Tx }): Promise<string | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`convene:speakers:${roomId}`}, 0))`;
  const pending = await tx.recording.findMany({
    where: { roomId, kind: 'PARTICIPANT', speakerTranscriptId: null, status: { not: 'FAILED' } },
    orderBy: { createdAt: 'asc' },
  });
  if (!pending.length || pending.some((r) => r.status !== 'COMPLETED')) return null;
  const room = await tx.room.findUniqueOrThrow({ where: { id: roomId }, include: { tenant: true } });
  if (!transcribesRecordings(room, room.tenant)) return null;
  const refused = await refusal(room.tenant, room, { tx });
  const starts = pending.map((r) => r.startedAt?.getTime() ?? r.createdAt.getTime());
  const t = await tx.transcript.create({
    data: {
      tenantId: room.tenantId,
      roomId,
      sessionId: pending.find((r) => r.sessionId)?.sessionId ?? null,
      source: 'PARTICIPANT_RECORDINGS',
      recordingIds: pending.map((r) => r.id),
      status: refused ? 'FAILED' : 'PENDING',
      error: refused?.message ?? null,
      startedAt: new Date(Math.min(...starts)),
    },
  });
  await tx.recording.updateMany({
    where: { id: { in: pending.map((r) => r.id) } },
    data: { speakerTranscriptId: t.id },
  });
  return refused ? null : t.id;
}

/**
 * POST /api/v1/transcripts: a transcript of completed recordings, asked for — again after one
 * failed for good, or of participant recordings chosen by hand. One composite recording, or
 * participant recordings of one room.
 */
export async function createTranscript(tenant: Tenant, input: { recordingIds: string[] }) {
  const recordings = await db().recording.findMany({ where: { id: { in: input.recordingIds }, tenantId: tenant.id } });
  if (recordings.length !== new Set(input.recordingIds).size) throw notFound('Recording');
  const roomIds = new Set(recordings.map((r) => r.roomId));
  if (roomIds.size !== 1) throw new ApiError('VALIDATION_FAILED', 'recordingIds: the recordings must be of one room.');
  const composite = recordings.filter((r) => r.kind === 'COMPOSITE');
  if (composite.length && recordings.length > 1)
    throw new ApiError(
      'VALIDATION_FAILED',
      'recordingIds: a composite recording is transcribed alone (its audio already mixes every speaker).',
    );
  const unfinished = recordings.find((r) => r.status !== 'COMPLETED');
  if (unfinished)
    throw invalidState(
      `The recording ${unfinished.id} is ${unfinished.status}; only COMPLETED recordings are transcribed.`,
    );
  const room = await findRoom(tenant.id, [...roomIds][0]);
  await assertTranscriptionAllowed(tenant, room);
  const starts = recordings.map((r) => r.startedAt?.getTime() ?? r.createdAt.getTime());
  const t = await db().transcript.create({
    data: {
      tenantId: tenant.id,
      roomId: room.id,
      sessionId: recordings.find((r) => r.sessionId)?.sessionId ?? null,
      ...(composite.length
        ? { source: 'RECORDING', recordingId: composite[0].id }
        : { source: 'PARTICIPANT_RECORDINGS', recordingIds: recordings.map((r) => r.id) }),
      status: 'PENDING',
      startedAt: new Date(Math.min(...starts)),
    },
  });
  await enqueueNotesJob('transcript', t.id);
  return transcriptView(t);
}

// ───────────────────────────── running a transcript ─────────────────────────────

/** Audio of one recording sent to the provider, its segments placed `offset` seconds into the transcript. */
async function transcribeRecording(
  stt: SpeechToText,
  recording: Recording,
  {
    offset,
    language,
    speaker,
  }: {
    offset: number;
    language: string | null;
    speaker: Omit<StoredSegment, keyof SpeakerSegment> & { speaker: string | null };
  },
) {
  const stream = await storage().read(recording.storageKey);
  const pieces = await speechPieces({
    recording: new Uint8Array(await new Response(stream).arrayBuffer()),
    audioOnly: recording.storageKey.endsWith('.ogg'),
    maxBytes: config().STT_MAX_UPLOAD_BYTES,
  });
  // One after another: a provider's rate limit is per key, and a refusal stops the rest.
  const texts: string[] = [];
  const segments: StoredSegment[] = [];
  let heard: string | null = null;
  for (const piece of pieces) {
    const answer = await stt.transcribe(piece.bytes, {
      // The provider tells formats by the file name's extension.
      filename: piece.filename,
      contentType: piece.contentType,
      language,
    });
    heard ??= answer.language;
    if (answer.text) texts.push(answer.text);
    for (const s of answer.segments)
      segments.push({
        start: s.start + piece.startsAt + offset,
        end: s.end + piece.startsAt + offset,
        text: s.text,
        ...speaker,
      });
  }
  return { text: texts.join(' '), segments, language: heard };
}

/** Claims a due transcript (PENDING, or FAILED with a retry due) and runs it. */
export async function runTranscript(transcriptId: string, now = new Date()): Promise<void> {
  const claimed = await db().transcript.updateMany({
    where: {
      id: transcriptId,
      OR: [{ status: 'PENDING' }, { status: 'FAILED', nextAttemptAt: { lte: now } }],
    },
    data: { status: 'PROCESSING', attempts: { increment: 1 }, nextAttemptAt: null },
  });
  if (claimed.count === 0) return; // taken by another worker, or not due
  const t = await db().transcript.findUniqueOrThrow({ where: { id: transcriptId } });
  const stt = speechToText();
  try {
    if (!stt) throw new Error('no speech-to-text service is configured (STT_BASE_URL)');
    const result =
      t.source === 'PARTICIPANT_RECORDINGS' ? await speakerTranscript(stt, t) : await compositeTranscript(stt, t);
    await completeTranscript(t, { ...result, provider: stt.name, model: stt.model });
  } catch (err) {
    const message = (err as Error).message.slice(0, 500);
    const retry = err instanceof ProviderError && err.retryable && t.attempts < TRANSCRIPT_RETRY.attempts;
    const delay = retryDelaySeconds(t.attempts);
    log.warn({ transcriptId, attempt: t.attempts, retry, err: message }, 'transcript failed');
    await db().transcript.update({
      where: { id: t.id },
      data: {
        status: 'FAILED',
        error: message,
        nextAttemptAt: retry ? new Date(Date.now() + delay * 1000) : null,
      },
    });
    if (retry) await enqueueNotesJob('transcript', t.id, { startAfterSeconds: delay });
  }
}

async function compositeTranscript(stt: SpeechToText, t: Transcript) {
  if (!t.recordingId) throw new Error('the transcript names no recording');
  const recording = await db().recording.findUnique({ where: { id: t.recordingId } });
  if (!recording) throw new Error('the recording was deleted');
  const result = await transcribeRecording(stt, recording, {
    offset: 0,
    language: t.language,
    speaker: { speaker: null },
  });
  return { ...result, audioSeconds: recording.duration ?? 0 };
}

async function speakerTranscript(stt: SpeechToText, t: Transcript) {
  const recordings = await db().recording.findMany({ where: { id: { in: t.recordingIds } } });
  if (!recordings.length) throw new Error('the participant recordings were deleted');
  const people = await db().participant.findMany({
    where: { id: { in: recordings.map((r) => r.participantId).filter((id): id is string => !!id) } },
    select: { id: true, displayName: true, externalUserId: true },
  });
  const base = t.startedAt?.getTime() ?? Math.min(...recordings.map((r) => (r.startedAt ?? r.createdAt).getTime()));
  const segments: StoredSegment[] = [];
  let language: string | null = null;
  let audioSeconds = 0;
  for (const recording of recordings) {
    const person = people.find((p) => p.id === recording.participantId);
    const result = await transcribeRecording(stt, recording, {
      offset: ((recording.startedAt ?? recording.createdAt).getTime() - base) / 1000,
      language: t.language,
      speaker: {
        speaker: person?.displayName ?? recording.participantIdentity ?? 'Unknown speaker',
        participantId: person?.id ?? null,
        externalUserId: person?.externalUserId ?? null,
      },
    });
    segments.push(...result.segments);
    language ??= result.language;
    audioSeconds += recording.duration ?? 0;
  }
  segments.sort((a, b) => a.start - b.start || a.end - b.end);
  const text = segments.map((s) => `${s.speaker}: ${s.text}`).join('\n');
  return { text, segments, language, audioSeconds };
}

/** COMPLETED with its segments; transcript.ready, and a summary queued if the room wants one. */
async function completeTranscript(
  t: Transcript,
  result: {
    text: string;
    segments: StoredSegment[];
    language: string | null;
    audioSeconds: number;
    provider: string | null;
    model: string | null;
  },
) {
  const completedAt = new Date();
  const summaryId = await db().$transaction(async (tx) => {
    const done = await tx.transcript.update({
      where: { id: t.id },
      data: {
        status: 'COMPLETED',
        text: result.text,
        segments: result.segments as unknown as object[],
        language: t.language ?? result.language,
        provider: result.provider,
        model: result.model,
        error: null,
        nextAttemptAt: null,
        completedAt,
      },
    });
    await emitEvent({
      tx,
      tenantId: t.tenantId,
      name: 'transcript.ready',
      data: {
        transcriptId: t.id,
        recordingId: t.recordingId,
        roomId: t.roomId,
        sessionId: t.sessionId,
        source: t.source,
      },
    });
    return queueSummaryIfWanted(done, { tx });
  });
  if (result.audioSeconds > 0)
    addUsage({
      tenantId: t.tenantId,
      metric: 'transcription_minutes',
      amount: Math.ceil(result.audioSeconds / 60),
      at: completedAt,
    });
  if (summaryId) await enqueueNotesJob('summary', summaryId);
}

// ───────────────────────────── housekeeping ─────────────────────────────

/** The lifecycle job's sweep (lib/domain/notes-sweep.ts). */
export async function runDueTranscripts(now = new Date()): Promise<number> {
  const due = await db().transcript.findMany({
    where: dueNotesJobs(now),
    select: { id: true, status: true },
    take: NOTES_JOBS_PER_SWEEP,
  });
  for (const t of due) {
    if (t.status === 'PROCESSING')
      await db().transcript.updateMany({
        where: { id: t.id, status: 'PROCESSING' },
        data: stoppedNotesJob('transcript', now),
      });
    await runTranscript(t.id, now);
  }
  return due.length;
}
