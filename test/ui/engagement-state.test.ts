import { describe, expect, it } from 'vitest';
import {
  addCaptions,
  currentCaptions,
  emptyCaptions,
  expireCaptions,
  mergePoll,
  mergeQuestion,
  myBallot,
  pollDraft,
  tally,
  visiblePolls,
  visibleQuestions,
  type CaptionSegment,
} from '@/components/call/engagement-state';
import type { PollResponse, QuestionResponse } from '@/components/call/participant-api';

// The pure state behind the call UI's polls, Q&A and captions (components/call/engagement-state.ts);
// reading their data-channel messages: test/ui/live-messages.test.ts.

function poll(over: Partial<PollResponse> = {}): PollResponse {
  return {
    id: 'poll_1',
    roomId: 'room_1',
    question: 'Lunch?',
    status: 'OPEN',
    isAnonymous: false,
    allowMultiple: false,
    totalVotes: 0,
    options: [
      { id: 'o_b', text: 'Pizza', order: 1, count: 0 },
      { id: 'o_a', text: 'Salad', order: 0, count: 0 },
    ],
    createdByExternalId: 'host',
    createdAt: '2026-01-01T10:00:00.000Z',
    openedAt: null,
    closedAt: null,
    ...over,
  };
}

function question(over: Partial<QuestionResponse> = {}): QuestionResponse {
  return {
    id: 'q_1',
    roomId: 'room_1',
    text: 'When is the release?',
    status: 'OPEN',
    askerExternalId: 'amy',
    askerName: 'Amy',
    upvoteCount: 0,
    answerText: null,
    answeredByExternalId: null,
    answeredAt: null,
    dismissedByExternalId: null,
    dismissedAt: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    ...over,
  };
}

describe('merging polls', () => {
  it('adds a new poll newest first and replaces a known one', () => {
    const older = poll({ id: 'poll_0', createdAt: '2026-01-01T09:00:00.000Z' });
    let list = mergePoll([older], poll());
    expect(list.map((p) => p.id)).toEqual(['poll_1', 'poll_0']);
    list = mergePoll(list, poll({ totalVotes: 1, options: [{ id: 'o_a', text: 'Salad', order: 0, count: 1 }] }));
    expect(list).toHaveLength(2);
    expect(list[0].totalVotes).toBe(1);
  });

  it('never moves a poll back in its lifecycle (a late message loses)', () => {
    const closed = [poll({ status: 'CLOSED', closedAt: '2026-01-01T10:05:00.000Z' })];
    expect(mergePoll(closed, poll({ status: 'OPEN' }))[0].status).toBe('CLOSED');
    expect(mergePoll([poll({ status: 'DRAFT' })], poll({ status: 'OPEN' }))[0].status).toBe('OPEN');
  });

  it('keeps the ballots a data-channel copy (which has none) does not carry', () => {
    const votes = [{ optionId: 'o_a', voterExternalId: 'amy' }];
    const merged = mergePoll([poll({ votes, totalVotes: 1 })], poll({ totalVotes: 2 }));
    expect(merged[0]).toMatchObject({ totalVotes: 2, votes });
  });

  it('hides drafts from everyone but moderators', () => {
    const list = [poll({ id: 'd', status: 'DRAFT' }), poll({ id: 'o' })];
    expect(visiblePolls(list, false).map((p) => p.id)).toEqual(['o']);
    expect(visiblePolls(list, true).map((p) => p.id)).toEqual(['d', 'o']);
  });
});

describe('tallies and ballots', () => {
  it('counts per option in option order, percent of ballots, and marks the leader', () => {
    const rows = tally(
      poll({
        totalVotes: 3,
        options: [
          { id: 'o_b', text: 'Pizza', order: 1, count: 2 },
          { id: 'o_a', text: 'Salad', order: 0, count: 1 },
        ],
      }),
    );
    expect(rows).toEqual([
      { id: 'o_a', text: 'Salad', count: 1, percent: 33, leading: false },
      { id: 'o_b', text: 'Pizza', count: 2, percent: 67, leading: true },
    ]);
  });

  it('has no leader and no division by zero before the first vote', () => {
    expect(tally(poll()).map((r) => [r.percent, r.leading])).toEqual([
      [0, false],
      [0, false],
    ]);
  });

  it('finds the viewer ballot: this session first, else the poll ballots', () => {
    const p = poll({
      votes: [
        { optionId: 'o_b', voterExternalId: 'amy' },
        { optionId: 'o_a', voterExternalId: 'bob' },
      ],
    });
    expect(myBallot(p, 'amy', {})).toEqual(['o_b']);
    expect(myBallot(p, 'amy', { poll_1: ['o_a'] })).toEqual(['o_a']);
    expect(myBallot(poll({ isAnonymous: true }), 'amy', {})).toEqual([]);
    expect(myBallot(p, null, {})).toEqual([]);
  });
});

describe('the new-poll form', () => {
  const flags = { allowMultiple: false, isAnonymous: true, openNow: true };
  it('drops blank option rows and builds the API body', () => {
    expect(pollDraft('  Lunch? ', [' Pizza ', '', 'Salad'], flags)).toEqual({
      ok: true,
      body: {
        question: 'Lunch?',
        options: ['Pizza', 'Salad'],
        allowMultiple: false,
        isAnonymous: true,
        status: 'OPEN',
      },
    });
    expect(pollDraft('Q', ['a', 'b'], { ...flags, openNow: false })).toMatchObject({
      ok: true,
      body: { status: 'DRAFT' },
    });
  });

  it('refuses what the API would refuse', () => {
    expect(pollDraft(' ', ['a', 'b'], flags)).toEqual({ ok: false, error: 'questionMissing' });
    expect(pollDraft('x'.repeat(501), ['a', 'b'], flags)).toEqual({ ok: false, error: 'questionTooLong' });
    expect(pollDraft('Q', ['a', '  '], flags)).toEqual({ ok: false, error: 'tooFewOptions' });
    expect(
      pollDraft(
        'Q',
        Array.from({ length: 11 }, (_, i) => `o${i}`),
        flags,
      ),
    ).toEqual({ ok: false, error: 'tooManyOptions' });
    expect(pollDraft('Q', ['a', 'b'.repeat(201)], flags)).toEqual({ ok: false, error: 'optionTooLong' });
    expect(pollDraft('Q', ['Yes', 'yes '], flags)).toEqual({ ok: false, error: 'duplicateOptions' });
  });
});

describe('merging and ordering questions', () => {
  it('adds, updates, and never lets an older copy win', () => {
    let list = mergeQuestion([], question({ upvoteCount: 2 }));
    list = mergeQuestion(list, question({ upvoteCount: 1 }));
    expect(list[0].upvoteCount).toBe(2);
    list = mergeQuestion(list, question({ upvoteCount: 3 }));
    expect(list[0].upvoteCount).toBe(3);
    list = mergeQuestion(list, question({ status: 'ANSWERED', upvoteCount: 3, answerText: 'Friday' }));
    list = mergeQuestion(list, question({ status: 'OPEN', upvoteCount: 4 }));
    expect(list[0]).toMatchObject({ status: 'ANSWERED', answerText: 'Friday' });
  });

  it('lists open questions first, by upvotes then oldest, or newest first; dismissed ones are gone', () => {
    const list = [
      question({ id: 'a', upvoteCount: 1, createdAt: '2026-01-01T10:00:00.000Z' }),
      question({ id: 'b', upvoteCount: 5, createdAt: '2026-01-01T10:01:00.000Z' }),
      question({ id: 'c', upvoteCount: 1, createdAt: '2026-01-01T10:02:00.000Z' }),
      question({ id: 'd', upvoteCount: 9, status: 'ANSWERED' }),
      question({ id: 'e', upvoteCount: 9, status: 'DISMISSED' }),
    ];
    expect(visibleQuestions(list, 'upvotes').map((q) => q.id)).toEqual(['b', 'a', 'c', 'd']);
    expect(visibleQuestions(list, 'recent').map((q) => q.id)).toEqual(['c', 'b', 'a', 'd']);
  });
});

describe('caption lines', () => {
  const seg = (over: Partial<CaptionSegment>): CaptionSegment => ({
    id: 's1',
    speaker: 'Ada',
    text: 'hello',
    final: false,
    source: 'event',
    ...over,
  });

  it('refines an interim line in place until it is final, then keeps it final', () => {
    let b = addCaptions(emptyCaptions, [seg({ text: 'hel' })], 0);
    b = addCaptions(b, [seg({ text: 'hello there' })], 100);
    expect(b.lines).toEqual([{ id: 's1', speaker: 'Ada', text: 'hello there', final: false, at: 100 }]);
    b = addCaptions(b, [seg({ text: 'Hello there.', final: true })], 200);
    b = addCaptions(b, [seg({ text: 'late interim' })], 300);
    expect(b.lines).toEqual([{ id: 's1', speaker: 'Ada', text: 'Hello there.', final: true, at: 200 }]);
  });

  it('keeps only the latest lines, skips empty text, and expires stale ones', () => {
    let b = emptyCaptions;
    for (let i = 1; i <= 5; i++) b = addCaptions(b, [seg({ id: `s${i}`, text: `line ${i}`, final: true })], i * 1000);
    b = addCaptions(b, [seg({ id: 'blank', text: '   ' })], 6000);
    expect(b.lines.map((l) => l.id)).toEqual(['s3', 's4', 's5']);
    expect(currentCaptions(b, 11_500).map((l) => l.id)).toEqual(['s4', 's5']);
    expect(expireCaptions(b, 20_000).lines).toEqual([]);
    expect(expireCaptions(b, 5000)).toBe(b);
  });

  it('prefers the transcription stream once seen over the older events (no doubled lines)', () => {
    let b = addCaptions(emptyCaptions, [seg({ id: 'ev1', text: 'from event' })], 0);
    b = addCaptions(b, [seg({ id: 'st1', text: 'from stream', source: 'stream' })], 10);
    b = addCaptions(b, [seg({ id: 'ev2', text: 'duplicate from event' })], 20);
    expect(b.streamSeen).toBe(true);
    expect(b.lines.map((l) => l.id)).toEqual(['ev1', 'st1']);
  });
});
