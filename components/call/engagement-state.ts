/**
 * Pure state for the in-call engagement panels (polls, Q&A) and the captions overlay: merging a
 * live update (read by lib/live-topics.ts) into a list, tallies, the poll form's checks, caption lines.
 * No React, no fetch: test/ui/engagement-state.test.ts covers it.
 */

import type { PollCreateBody, PollResponse, QuestionResponse } from '@/components/call/participant-api';
import { LIVE_TOPICS } from '@/lib/live-topics';

export type PollStatus = PollResponse['status'];
export type QuestionStatus = QuestionResponse['status'];

export const POLL_TOPIC = LIVE_TOPICS.polls;
export const QUESTION_TOPIC = LIVE_TOPICS.questions;

const POLL_RANK: Record<PollStatus, number> = { DRAFT: 0, OPEN: 1, CLOSED: 2 };
const QUESTION_RANK: Record<QuestionStatus, number> = { OPEN: 0, ANSWERED: 1, DISMISSED: 2 };

/** Newest first, as GET /api/v1/polls/public lists them. */
const byNewest = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

/**
 * Puts one poll into the list (replacing the one with its id, or adding it). A poll never goes
 * back in its lifecycle, so a late message about an earlier state is dropped. A data-channel
 * poll carries no ballots: the ones the list had are kept (they only tell the viewer's own vote).
 */
export function mergePoll(list: readonly PollResponse[], incoming: PollResponse): PollResponse[] {
  const current = list.find((p) => p.id === incoming.id);
  if (!current) return [...list, incoming].sort(byNewest);
  if (POLL_RANK[incoming.status] < POLL_RANK[current.status]) return [...list];
  const merged = incoming.votes || !current.votes ? incoming : { ...incoming, votes: current.votes };
  return list.map((p) => (p.id === incoming.id ? merged : p));
}

/**
 * Puts one question into the list. Upvotes only grow and a question only moves forward
 * (OPEN → ANSWERED → DISMISSED), so an older copy never overwrites a newer one.
 */
export function mergeQuestion(list: readonly QuestionResponse[], incoming: QuestionResponse): QuestionResponse[] {
  const current = list.find((q) => q.id === incoming.id);
  if (!current) return [...list, incoming];
  const older =
    QUESTION_RANK[incoming.status] < QUESTION_RANK[current.status] ||
    (incoming.status === current.status && incoming.upvoteCount < current.upvoteCount);
  return older ? [...list] : list.map((q) => (q.id === incoming.id ? incoming : q));
}

export type QuestionSort = 'upvotes' | 'recent';

/**
 * What the Q&A panel lists: dismissed questions are gone; open ones first. By upvotes: most
 * upvoted first, then oldest first (the server's order); by recent: newest first.
 */
export function visibleQuestions(list: readonly QuestionResponse[], sort: QuestionSort): QuestionResponse[] {
  return list
    .filter((q) => q.status !== 'DISMISSED')
    .sort((a, b) => {
      if (a.status !== b.status) return QUESTION_RANK[a.status] - QUESTION_RANK[b.status];
      if (sort === 'recent') return byNewest(a, b);
      if (a.upvoteCount !== b.upvoteCount) return b.upvoteCount - a.upvoteCount;
      return a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;
    });
}

/** Polls a person sees: moderators see drafts too; everyone else only open and closed polls. */
export function visiblePolls(list: readonly PollResponse[], isModerator: boolean): PollResponse[] {
  return list.filter((p) => isModerator || p.status !== 'DRAFT');
}

export interface TallyRow {
  id: string;
  text: string;
  count: number;
  /** Whole percent of ballots (voters) that picked this option; with several choices these add up past 100. */
  percent: number;
  leading: boolean;
}

export function tally(poll: PollResponse): TallyRow[] {
  const top = Math.max(0, ...poll.options.map((o) => o.count));
  return [...poll.options]
    .sort((a, b) => a.order - b.order)
    .map((o) => ({
      id: o.id,
      text: o.text,
      count: o.count,
      percent: poll.totalVotes > 0 ? Math.round((o.count / poll.totalVotes) * 100) : 0,
      leading: top > 0 && o.count === top,
    }));
}

/**
 * The viewer's own ballot: the one they cast in this session (anonymous polls never tell), else
 * the one in the poll's ballots, else none.
 */
export function myBallot(
  poll: PollResponse,
  selfId: string | null,
  cast: Readonly<Record<string, readonly string[]>>,
): string[] {
  const local = cast[poll.id];
  if (local) return [...local];
  if (!selfId || !poll.votes) return [];
  return poll.votes.filter((v) => v.voterExternalId === selfId).map((v) => v.optionId);
}

export const POLL_LIMITS = { minOptions: 2, maxOptions: 10, questionMax: 500, optionMax: 200 } as const;

export type PollDraftError =
  | 'questionMissing'
  | 'questionTooLong'
  | 'tooFewOptions'
  | 'tooManyOptions'
  | 'optionTooLong'
  | 'duplicateOptions';

/** Checks the host's poll form as the API will (blank option rows are dropped) and builds the request body. */
export function pollDraft(
  question: string,
  options: readonly string[],
  flags: { allowMultiple: boolean; isAnonymous: boolean; openNow: boolean },
): { ok: true; body: PollCreateBody } | { ok: false; error: PollDraftError } {
  const q = question.trim();
  if (!q) return { ok: false, error: 'questionMissing' };
  if (q.length > POLL_LIMITS.questionMax) return { ok: false, error: 'questionTooLong' };
  const opts = options.map((o) => o.trim()).filter(Boolean);
  if (opts.length < POLL_LIMITS.minOptions) return { ok: false, error: 'tooFewOptions' };
  if (opts.length > POLL_LIMITS.maxOptions) return { ok: false, error: 'tooManyOptions' };
  if (opts.some((o) => o.length > POLL_LIMITS.optionMax)) return { ok: false, error: 'optionTooLong' };
  if (new Set(opts.map((o) => o.toLowerCase())).size !== opts.length) return { ok: false, error: 'duplicateOptions' };
  return {
    ok: true,
    body: {
      question: q,
      options: opts,
      allowMultiple: flags.allowMultiple,
      isAnonymous: flags.isAnonymous,
      status: flags.openNow ? 'OPEN' : 'DRAFT',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Captions

export interface CaptionLine {
  id: string;
  speaker: string;
  text: string;
  final: boolean;
  /** When the line last changed (ms). */
  at: number;
}

export interface CaptionBuffer {
  lines: CaptionLine[];
  /**
   * Captions can arrive twice: as the `lk.transcription` text stream and as the older
   * transcription events. Once a stream segment was seen, the older events are ignored.
   */
  streamSeen: boolean;
}

export const emptyCaptions: CaptionBuffer = { lines: [], streamSeen: false };
export const CAPTION_MAX_LINES = 3;
export const CAPTION_TTL_MS = 8000;
/**
 * The most of one line kept (its latest words): a spoken segment is a few hundred characters, and
 * a longer one would not fit the overlay anyway. Speaker names and segment ids are clipped too.
 */
export const CAPTION_MAX_CHARS = 500;
const SPEAKER_MAX_CHARS = 100;
const SEGMENT_ID_MAX_CHARS = 128;
/** Segments read from one update at most (a real one carries one or two). */
const SEGMENTS_PER_UPDATE = 8;

export interface CaptionSegment {
  id: string;
  speaker: string;
  text: string;
  final: boolean;
  source: 'stream' | 'event';
}

/** The latest `max` characters of a caption's text, trimmed (never splits a surrogate pair). */
export function captionTail(text: string, max = CAPTION_MAX_CHARS): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  let start = trimmed.length - max;
  const code = trimmed.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return trimmed.slice(start).trimStart();
}

/**
 * Adds or updates caption segments (by id). Interim text is replaced as it is refined; a final
 * line stays final. Only the last CAPTION_MAX_LINES lines are kept, each at most
 * CAPTION_MAX_CHARS long, and at most SEGMENTS_PER_UPDATE segments of one update are read: the
 * buffer stays small whatever arrives.
 */
export function addCaptions(
  buf: CaptionBuffer,
  segments: readonly CaptionSegment[],
  now: number,
  maxLines = CAPTION_MAX_LINES,
): CaptionBuffer {
  let lines = buf.lines;
  let streamSeen = buf.streamSeen;
  for (const s of segments.slice(-SEGMENTS_PER_UPDATE)) {
    if (s.source === 'stream') streamSeen = true;
    else if (streamSeen) continue;
    const text = captionTail(String(s.text ?? ''));
    const id = String(s.id ?? '').slice(0, SEGMENT_ID_MAX_CHARS);
    const speaker = String(s.speaker ?? '').slice(0, SPEAKER_MAX_CHARS);
    const i = lines.findIndex((l) => l.id === id);
    if (i >= 0) {
      if (lines[i].final && !s.final) continue;
      if (!text) {
        lines = lines.filter((_, j) => j !== i);
        continue;
      }
      lines = lines.map((l, j) =>
        j === i ? { ...l, text, final: s.final, speaker: speaker || l.speaker, at: now } : l,
      );
    } else if (text) {
      lines = [...lines, { id, speaker, text, final: s.final, at: now }];
    }
  }
  return { lines: lines.slice(-maxLines), streamSeen };
}

/** Lines still worth showing: those that changed within the last ttl ms. */
export function currentCaptions(buf: CaptionBuffer, now: number, ttl = CAPTION_TTL_MS): CaptionLine[] {
  return buf.lines.filter((l) => now - l.at < ttl);
}

/** Drops expired lines (keeps the same object when nothing expired, so React can skip a render). */
export function expireCaptions(buf: CaptionBuffer, now: number, ttl = CAPTION_TTL_MS): CaptionBuffer {
  const kept = currentCaptions(buf, now, ttl);
  return kept.length === buf.lines.length ? buf : { ...buf, lines: kept };
}
