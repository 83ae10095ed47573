import type { Room, Transcript } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { emitEvent } from '@/lib/events/outbox';
import { speechToText } from '@/lib/stt';
import { openSessionId } from '@/lib/domain/sessions';
import { queueSummaryIfWanted } from '@/lib/domain/summaries';
import type { StoredSegment } from '@/lib/domain/transcripts-formats';

/**
 * Live transcripts: what the captions worker transcribed per speaker during a meeting, kept LIVE
 * (one per room session, its segments as rows) while the meeting goes on, completed when the room
 * ends — notes with no second transcription — and pruned with retention. The transcripts made from
 * recordings are lib/domain/transcripts.ts; reading either is lib/domain/transcript-reads.ts.
 */

/** What one live transcript may hold: a meeting's captions are bounded like any tenant data. */
export const LIVE_TRANSCRIPT_LIMITS = {
  /** Segments kept per live transcript; later ones are dropped (and counted in the answer). */
  maxSegments: 5_000,
  /** Characters of one segment's text. */
  maxTextChars: 2_000,
  /** Segments in one request. */
  maxBatch: 50,
  /** Segments are taken this long after captions stopped (the worker's last ones in flight). */
  graceAfterStopMs: 60_000,
};

/** The room's LIVE captions transcript, opened when captions start (one per room session). */
export async function openLiveTranscript(
  room: Room,
  { language, now = new Date(), tx = db() }: { language: string; now?: Date; tx?: Tx },
) {
  const sessionId = await openSessionId(room.id, { tx });
  // Captions stopped and started again in the same meeting add to its transcript (a room's LIVE
  // one completes when the room ends, so the next meeting starts a new one).
  const open = await tx.transcript.findFirst({
    where: { roomId: room.id, source: 'CAPTIONS', status: 'LIVE' },
    orderBy: { createdAt: 'desc' },
  });
  if (open && !open.sessionId && sessionId)
    return tx.transcript.update({ where: { id: open.id }, data: { sessionId } });
  if (open) return open;
  const stt = speechToText();
  return tx.transcript.create({
    data: {
      tenantId: room.tenantId,
      roomId: room.id,
      sessionId,
      source: 'CAPTIONS',
      status: 'LIVE',
      language,
      startedAt: now,
      provider: stt?.name ?? null,
      model: stt?.model ?? null,
    },
  });
}

export interface LiveSegmentInput {
  id: string;
  participantIdentity: string;
  text: string;
  startedAt: Date;
  endedAt: Date;
}

/**
 * Final caption segments from the captions worker of a room (authenticated by the caller as that
 * room's captions agent): kept in the room's LIVE transcript with the speaker's name. A segment
 * sent twice is kept once; past the transcript's bound, segments are dropped and counted.
 */
export async function addLiveSegments(
  room: Room,
  { language, segments }: { language: string; segments: LiveSegmentInput[] },
) {
  return db().$transaction(async (tx) => {
    const transcript = await openLiveTranscript(room, { language, tx });
    // One writer at a time per transcript, so the bound holds.
    await tx.$executeRaw`SELECT 1 FROM "Transcript" WHERE id = ${transcript.id} FOR UPDATE`;
    const held = await tx.liveTranscriptSegment.count({ where: { transcriptId: transcript.id } });
    const room_ = LIVE_TRANSCRIPT_LIMITS.maxSegments - held;
    const taken = segments.slice(0, Math.max(0, room_));
    const people = await tx.participant.findMany({
      where: { roomId: room.id, mediaIdentity: { in: [...new Set(taken.map((s) => s.participantIdentity))] } },
      select: { id: true, mediaIdentity: true, displayName: true, externalUserId: true },
    });
    const created = await tx.liveTranscriptSegment.createMany({
      data: taken.map((s) => {
        const person = people.find((p) => p.mediaIdentity === s.participantIdentity);
        return {
          transcriptId: transcript.id,
          key: s.id,
          speakerIdentity: s.participantIdentity,
          participantId: person?.id ?? null,
          speakerName: person?.displayName ?? s.participantIdentity,
          externalUserId: person?.externalUserId ?? null,
          text: s.text.slice(0, LIVE_TRANSCRIPT_LIMITS.maxTextChars),
          startedAt: s.startedAt,
          endedAt: s.endedAt,
        };
      }),
      skipDuplicates: true,
    });
    return { transcriptId: transcript.id, accepted: created.count, dropped: segments.length - taken.length };
  });
}

export function liveSegments(
  t: Pick<Transcript, 'startedAt' | 'createdAt'>,
  rows: {
    startedAt: Date;
    endedAt: Date;
    text: string;
    speakerName: string;
    participantId: string | null;
    externalUserId: string | null;
  }[],
): StoredSegment[] {
  const base = (t.startedAt ?? t.createdAt).getTime();
  return rows.map((r) => ({
    start: Math.max(0, (r.startedAt.getTime() - base) / 1000),
    end: Math.max(0, (r.endedAt.getTime() - base) / 1000),
    text: r.text,
    speaker: r.speakerName,
    participantId: r.participantId,
    externalUserId: r.externalUserId,
  }));
}

/**
 * The room ended: its LIVE transcripts complete (the segments folded into the transcript, their
 * rows deleted), transcript.ready is emitted, and a summary is queued. Called in the transaction
 * that ends the room; returns the summaries to run once it commits.
 */
export async function completeLiveTranscripts(roomId: string, now: Date, { tx }: { tx: Tx }): Promise<string[]> {
  const live = await tx.transcript.findMany({ where: { roomId, source: 'CAPTIONS', status: 'LIVE' } });
  const summaries: string[] = [];
  for (const t of live) {
    const rows = await tx.liveTranscriptSegment.findMany({
      where: { transcriptId: t.id },
      orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    });
    const segments = liveSegments(t, rows);
    const done = await tx.transcript.update({
      where: { id: t.id },
      data: {
        status: 'COMPLETED',
        segments: segments as unknown as object[],
        text: segments.map((s) => `${s.speaker}: ${s.text}`).join('\n'),
        completedAt: now,
      },
    });
    await tx.liveTranscriptSegment.deleteMany({ where: { transcriptId: t.id } });
    await emitEvent({
      tx,
      tenantId: t.tenantId,
      name: 'transcript.ready',
      data: { transcriptId: t.id, recordingId: null, roomId, sessionId: t.sessionId, source: 'CAPTIONS' },
    });
    // Nothing was said: nothing to summarise.
    const summaryId = segments.length ? await queueSummaryIfWanted(done, { tx }) : null;
    if (summaryId) summaries.push(summaryId);
  }
  return summaries;
}

/**
 * Retention: live transcripts (the captions' words, kept without a recording) older than
 * RETENTION_DAYS are deleted with their summaries, in batches, as chat messages are.
 */
export async function pruneLiveTranscripts(now = new Date(), retentionDays = config().RETENTION_DAYS) {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let pruned = 0;
  for (;;) {
    const n = await db().$executeRaw`
      DELETE FROM "Transcript" WHERE id = ANY(ARRAY(
        SELECT id FROM "Transcript" WHERE source = 'CAPTIONS' AND "createdAt" < ${cutoff} ORDER BY "createdAt" LIMIT 500))`;
    pruned += n;
    if (n < 500) return pruned;
  }
}
