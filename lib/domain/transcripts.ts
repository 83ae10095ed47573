import type { Transcript, Tenant } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { notFound } from '@/lib/errors';
import { storage } from '@/lib/storage';
import { speechToText, type TranscriptSegment } from '@/lib/stt';
import { speechPieces } from '@/lib/speech-pieces';
import { config } from '@/lib/config';
import { emitEvent } from '@/lib/events/outbox';
import { log } from '@/lib/log';
import type { TranscriptResponse } from '@/lib/domain/transcripts.schemas';
import { iso } from '@/lib/domain/time';

/**
 * Transcripts of completed recordings of AI-enabled rooms (never test mode, never E2EE — such
 * rooms are not recorded). PENDING → PROCESSING → COMPLETED (transcript.ready
 * {transcriptId, recordingId}) | FAILED. Runs as a job on the same queue as webhooks.
 */
function transcriptView(t: Transcript): TranscriptResponse {
  return {
    id: t.id,
    recordingId: t.recordingId,
    roomId: t.roomId,
    status: t.status,
    language: t.language,
    text: t.text,
    // Start and end in seconds from the recording's start, as the provider timed them.
    segments: t.segments as TranscriptResponse['segments'],
    provider: t.provider,
    error: t.error,
    createdAt: t.createdAt.toISOString(),
    completedAt: iso(t.completedAt),
  };
}

/** Called in the transaction that completes a recording; returns the transcript to run, if any. */
export async function queueTranscriptIfWanted(
  recording: { id: string; tenantId: string; roomId: string },
  { tx }: { tx: Tx },
): Promise<string | null> {
  const room = await tx.room.findUniqueOrThrow({ where: { id: recording.roomId }, include: { tenant: true } });
  if (!room.enableAiFeatures || room.enableE2EE || room.tenant.isTestMode || !speechToText()) return null;
  const t = await tx.transcript.create({
    data: { tenantId: recording.tenantId, recordingId: recording.id, roomId: recording.roomId, status: 'PENDING' },
  });
  return t.id;
}

export async function runTranscript(transcriptId: string): Promise<void> {
  const claimed = await db().transcript.updateMany({
    where: { id: transcriptId, status: 'PENDING' },
    data: { status: 'PROCESSING' },
  });
  if (claimed.count === 0) return; // already taken by another worker
  const t = await db().transcript.findUniqueOrThrow({ where: { id: transcriptId }, include: { recording: true } });
  const stt = speechToText();
  try {
    if (!stt) throw new Error('no speech-to-text provider is configured');
    const stream = await storage().read(t.recording.storageKey);
    const pieces = await speechPieces({
      recording: new Uint8Array(await new Response(stream).arrayBuffer()),
      audioOnly: t.recording.storageKey.endsWith('.ogg'),
      maxBytes: config().STT_MAX_UPLOAD_BYTES,
    });
    // One after another: a provider's rate limit is per key, and a refusal stops the rest.
    const texts: string[] = [];
    const segments: TranscriptSegment[] = [];
    for (const piece of pieces) {
      const answer = await stt.transcribe(piece.bytes, {
        // The provider tells formats by the file name's extension.
        filename: piece.filename,
        contentType: piece.contentType,
        language: t.language,
      });
      if (answer.text) texts.push(answer.text);
      for (const s of answer.segments)
        segments.push({ start: s.start + piece.startsAt, end: s.end + piece.startsAt, text: s.text });
    }
    const result = { text: texts.join(' '), segments };
    await db().$transaction(async (tx) => {
      await tx.transcript.update({
        where: { id: t.id },
        data: {
          status: 'COMPLETED',
          text: result.text,
          segments: result.segments as object[],
          provider: stt.name,
          completedAt: new Date(),
        },
      });
      await emitEvent({
        tx,
        tenantId: t.tenantId,
        name: 'transcript.ready',
        data: { transcriptId: t.id, recordingId: t.recordingId },
      });
    });
  } catch (err) {
    log.warn({ transcriptId, err: (err as Error).message }, 'transcript failed');
    await db().transcript.update({
      where: { id: t.id },
      data: { status: 'FAILED', error: (err as Error).message.slice(0, 500) },
    });
  }
}

export async function getTranscript(tenant: Tenant, id: string) {
  const t = await db().transcript.findFirst({ where: { id, tenantId: tenant.id } });
  if (!t) throw notFound('Transcript');
  return transcriptView(t);
}

export async function transcriptsOfRecording(tenant: Tenant, recordingId: string) {
  const rec = await db().recording.findFirst({ where: { id: recordingId, tenantId: tenant.id } });
  if (!rec) throw notFound('Recording');
  const rows = await db().transcript.findMany({ where: { recordingId: rec.id }, orderBy: { createdAt: 'desc' } });
  return { data: rows.map(transcriptView), nextCursor: null };
}
