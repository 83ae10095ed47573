import type { Tenant, Transcript } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db } from '@/lib/db';
import { invalidState, notFound } from '@/lib/errors';
import { findRoom } from '@/lib/domain/rooms';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { iso } from '@/lib/domain/time';
import { liveSegments } from '@/lib/domain/live-transcripts';
import type { TranscriptResponse, transcriptListQuery } from '@/lib/domain/transcripts.schemas';
import {
  TRANSCRIPT_FORMATS,
  toPlainText,
  toSrt,
  toWebVtt,
  type StoredSegment,
  type TranscriptFormat,
} from '@/lib/domain/transcripts-formats';

/**
 * Reading transcripts as the API and the console show them: a LIVE one with its segments so far,
 * each with its speakers; a document in a format (JSON, WebVTT, SRT, text).
 */

function speakersOf(segments: StoredSegment[]) {
  const seen = new Map<string, { name: string; participantId: string | null; externalUserId: string | null }>();
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    if (!s.speaker) continue;
    const key = s.participantId ?? s.externalUserId ?? s.speaker;
    if (!seen.has(key))
      seen.set(key, {
        name: s.speaker,
        participantId: s.participantId ?? null,
        externalUserId: s.externalUserId ?? null,
      });
  }
  return [...seen.values()];
}

/** Stored segments as the API shows them (old rows have no speaker field). */
function storedSegments(t: Pick<Transcript, 'segments'>): StoredSegment[] | null {
  if (!Array.isArray(t.segments)) return null;
  return (t.segments as unknown as StoredSegment[]).map((s) => ({
    start: s.start,
    end: s.end,
    text: s.text,
    speaker: s.speaker ?? null,
    participantId: s.participantId ?? null,
    externalUserId: s.externalUserId ?? null,
  }));
}

export function transcriptView(t: Transcript, live?: StoredSegment[]): TranscriptResponse {
  const segments = live ?? storedSegments(t);
  return {
    id: t.id,
    recordingId: t.recordingId,
    recordingIds: t.recordingIds,
    roomId: t.roomId,
    sessionId: t.sessionId,
    source: t.source,
    status: t.status,
    language: t.language,
    text: live ? live.map((s) => (s.speaker ? `${s.speaker}: ${s.text}` : s.text)).join('\n') : t.text,
    startedAt: iso(t.startedAt),
    segments,
    speakers: speakersOf(segments ?? []),
    provider: t.provider,
    model: t.model,
    error: t.error,
    attempts: t.attempts,
    nextAttemptAt: iso(t.nextAttemptAt),
    createdAt: t.createdAt.toISOString(),
    completedAt: iso(t.completedAt),
  };
}

// ───────────────────────────── the rules ─────────────────────────────

async function findTranscript(tenantId: string, id: string) {
  const t = await db().transcript.findFirst({ where: { id, tenantId } });
  if (!t) throw notFound('Transcript');
  return t;
}

async function withLive(t: Transcript) {
  if (t.status !== 'LIVE') return transcriptView(t);
  const rows = await db().liveTranscriptSegment.findMany({
    where: { transcriptId: t.id },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
  });
  return transcriptView(t, liveSegments(t, rows));
}

export async function getTranscript(tenant: Tenant, id: string) {
  return withLive(await findTranscript(tenant.id, id));
}

/**
 * A transcript in a format: JSON (the view), or WebVTT, SRT or text as a download. Only a
 * transcript with segments (COMPLETED, or LIVE so far) has a document.
 */
export async function transcriptDocument(tenant: Tenant, id: string, format: TranscriptFormat) {
  const view = await getTranscript(tenant, id);
  if (format === 'json') return { kind: 'json' as const, view };
  if ((view.status !== 'COMPLETED' && view.status !== 'LIVE') || !view.segments)
    throw invalidState(`The transcript is ${view.status}; only a COMPLETED (or LIVE) transcript has segments.`);
  const render = { vtt: toWebVtt, srt: toSrt, txt: toPlainText }[format];
  return {
    kind: 'document' as const,
    document: {
      body: render(view.segments),
      contentType: TRANSCRIPT_FORMATS[format].contentType,
      filename: `transcript-${view.id}.${TRANSCRIPT_FORMATS[format].extension}`,
    },
  };
}

/** A transcript as a file in a format (the console's downloads); an unknown format is not found. */
export async function transcriptDownload(tenant: Tenant, id: string, format: string): Promise<Response> {
  if (!(format in TRANSCRIPT_FORMATS)) throw notFound('Format');
  const found = await transcriptDocument(tenant, id, format as TranscriptFormat);
  const { body, contentType, filename } =
    found.kind === 'document'
      ? found.document
      : {
          body: JSON.stringify(found.view, null, 2),
          contentType: 'application/json',
          filename: `transcript-${id}.json`,
        };
  return new Response(body, {
    headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"` },
  });
}

export async function listTranscripts(tenant: Tenant, query: z.infer<typeof transcriptListQuery>) {
  if (query.roomId) await findRoom(tenant.id, query.roomId);
  const page = pageArgs(query);
  const rows = await db().transcript.findMany({
    where: {
      tenantId: tenant.id,
      ...(query.roomId ? { roomId: query.roomId } : {}),
      ...(query.sessionId ? { sessionId: query.sessionId } : {}),
      ...(query.source ? { source: query.source } : {}),
      ...page.where,
    },
    orderBy: page.orderBy,
    take: page.take,
  });
  // A LIVE one with its segments so far, as GET shows it (a page holds at most 100).
  const page_ = toPage(rows, query, (t) => t);
  return { data: await Promise.all(page_.data.map(withLive)), nextCursor: page_.nextCursor };
}

/** A session's transcripts, newest first, live ones with their segments so far (the console). */
export async function transcriptsOfSession(tenant: Tenant, sessionId: string) {
  const rows = await db().transcript.findMany({
    where: { tenantId: tenant.id, sessionId },
    orderBy: { createdAt: 'desc' },
    take: 20,
  });
  return Promise.all(rows.map(withLive));
}

export async function transcriptsOfRecording(tenant: Tenant, recordingId: string) {
  const rec = await db().recording.findFirst({ where: { id: recordingId, tenantId: tenant.id } });
  if (!rec) throw notFound('Recording');
  const rows = await db().transcript.findMany({
    where: { OR: [{ recordingId: rec.id }, { recordingIds: { has: rec.id } }] },
    orderBy: { createdAt: 'desc' },
  });
  return { data: rows.map((t) => transcriptView(t)), nextCursor: null };
}
