'use client';

import { useId, useState } from 'react';
import { visibleQuestions, type QuestionSort } from '@/components/call/engagement-state';
import { focusRing } from '@/components/call/focus-ring';
import { PanelList } from '@/components/call/PanelList';
import type { ParticipantApi, QuestionResponse } from '@/components/call/participant-api';
import { useListAction } from '@/components/call/useLiveList';
import type { Self } from '@/components/call/useSelf';
import { useT } from '@/components/call/useT';
import type { QuestionsState } from '@/components/call/useQuestions';

const QUESTION_MAX = 1000;
const ANSWER_MAX = 5000;
const button = `rounded bg-slate-700 px-2 py-1 text-xs hover:bg-slate-600 disabled:opacity-50 ${focusRing}`;

/**
 * Everyone asks and upvotes; hosts and moderators (per GET /api/v1/me — the server checks its own
 * records on every action) also mark questions answered, with an optional answer, and dismiss them.
 */
export function QuestionsPanel({
  state,
  api,
  self,
}: {
  state: QuestionsState;
  api: ParticipantApi;
  self: Self | null;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<QuestionSort>('upvotes');
  const { run, notice, busy } = useListAction<QuestionResponse>(state);
  const inputId = useId();
  const isModerator = self?.isModerator === true;

  const ask = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    if (await run(() => api('POST', '/questions/public', { text: text.trim() }), t.questions.asked)) setText('');
  };

  const list = state.questions ? visibleQuestions(state.questions, sort) : null;
  return (
    <div className="space-y-3">
      <form onSubmit={ask} className="space-y-2">
        <label htmlFor={inputId} className="block text-xs text-slate-300">
          {t.questions.askLabel}
        </label>
        <textarea
          id={inputId}
          rows={2}
          maxLength={QUESTION_MAX}
          className={`w-full rounded bg-slate-800 px-2 py-1 text-white ${focusRing}`}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="submit"
          disabled={busy || !text.trim()}
          className={`rounded bg-blue-700 px-3 py-1 font-medium hover:bg-blue-600 disabled:opacity-50 ${focusRing}`}
        >
          {t.questions.ask}
        </button>
      </form>
      <div role="group" aria-label={t.questions.sortLabel} className="flex gap-1">
        {(['upvotes', 'recent'] as const).map((key) => (
          <button
            key={key}
            type="button"
            aria-pressed={sort === key}
            onClick={() => setSort(key)}
            className={`rounded px-2 py-0.5 text-xs ${sort === key ? 'bg-sky-700' : 'bg-slate-700 hover:bg-slate-600'} ${focusRing}`}
          >
            {t.questions.sort[key]}
          </button>
        ))}
      </div>
      <PanelList
        items={list}
        failed={state.failed}
        empty={t.questions.empty}
        className="space-y-2"
        item={(q) => (
          <QuestionItem
            key={q.id}
            question={q}
            upvoted={state.upvoted.has(q.id)}
            disabled={busy}
            isModerator={isModerator}
            onAnswer={(answerText) =>
              run(
                () => api('POST', `/questions/public/${q.id}/answer`, answerText ? { answerText } : undefined),
                t.questions.markedAnswered,
              )
            }
            onDismiss={() => void run(() => api('POST', `/questions/public/${q.id}/dismiss`), t.questions.dismissed)}
            onUpvote={() =>
              void run(async () => {
                const updated = await api('POST', `/questions/public/${q.id}/upvote`);
                state.markUpvoted(q.id);
                return updated;
              }, null)
            }
          />
        )}
      />
      <p role="status" className="min-h-5 text-slate-300">
        {notice}
      </p>
    </div>
  );
}

function QuestionItem({
  question: q,
  upvoted,
  disabled,
  isModerator,
  onUpvote,
  onAnswer,
  onDismiss,
}: {
  question: QuestionResponse;
  upvoted: boolean;
  disabled: boolean;
  isModerator: boolean;
  onUpvote: () => void;
  onAnswer: (answerText: string) => Promise<boolean>;
  onDismiss: () => void;
}) {
  const t = useT();
  const [answer, setAnswer] = useState('');
  const answerId = useId();
  return (
    <li className="flex gap-2 rounded border border-slate-700 p-2">
      <button
        type="button"
        aria-label={t.questions.upvote(q.text)}
        aria-pressed={upvoted}
        disabled={disabled || upvoted || q.status !== 'OPEN'}
        onClick={onUpvote}
        className={`flex h-fit min-w-10 flex-col items-center rounded px-1 py-0.5 ${upvoted ? 'bg-sky-700' : 'bg-slate-700 hover:bg-slate-600'} disabled:cursor-default ${focusRing}`}
      >
        <span aria-hidden="true">▲</span>
        <span aria-hidden="true" className="text-xs">
          {q.upvoteCount}
        </span>
      </button>
      <div className="min-w-0 flex-1">
        <p className="break-words">{q.text}</p>
        <p className="text-xs text-slate-400">
          {t.questions.askedBy(q.askerName ?? t.questions.anonymousAsker)} · {t.questions.upvotes(q.upvoteCount)}
          {q.status === 'ANSWERED' && (
            <span className="ml-1 rounded bg-emerald-800 px-1 text-white">{t.questions.answered}</span>
          )}
        </p>
        {q.answerText && (
          <p className="mt-1 text-slate-200">
            <span className="font-semibold">{t.questions.answer}: </span>
            {q.answerText}
          </p>
        )}
        {isModerator && q.status !== 'DISMISSED' && (
          <form
            className="mt-2 space-y-1"
            onSubmit={(e) => {
              e.preventDefault();
              void onAnswer(answer.trim()).then((ok) => ok && setAnswer(''));
            }}
          >
            {q.status === 'OPEN' && (
              <>
                <label htmlFor={answerId} className="sr-only">
                  {t.questions.answerField(q.text)}
                </label>
                <textarea
                  id={answerId}
                  rows={1}
                  maxLength={ANSWER_MAX}
                  placeholder={t.questions.answerPlaceholder}
                  className={`w-full rounded bg-slate-800 px-2 py-1 text-white placeholder:text-slate-400 ${focusRing}`}
                  value={answer}
                  onChange={(e) => setAnswer(e.target.value)}
                />
              </>
            )}
            <div className="flex gap-2">
              {q.status === 'OPEN' && (
                <button
                  type="submit"
                  aria-label={t.questions.markAnsweredLabel(q.text)}
                  disabled={disabled}
                  className={button}
                >
                  {t.questions.markAnswered}
                </button>
              )}
              <button
                type="button"
                aria-label={t.questions.dismissLabel(q.text)}
                disabled={disabled}
                onClick={onDismiss}
                className={button}
              >
                {t.questions.dismiss}
              </button>
            </div>
          </form>
        )}
      </div>
    </li>
  );
}
