'use client';

import { useEffect, useId, useState } from 'react';
import { POLL_LIMITS, myBallot, pollDraft, tally, visiblePolls } from '@/components/call/engagement-state';
import { focusRing } from '@/components/call/focus-ring';
import { PanelList } from '@/components/call/PanelList';
import type { ParticipantApi, PollCreateBody, PollResponse } from '@/components/call/participant-api';
import { useListAction } from '@/components/call/useLiveList';
import type { Self } from '@/components/call/useSelf';
import { useT } from '@/components/call/useT';
import type { PollsState } from '@/components/call/usePolls';

const button = `rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 disabled:opacity-50 ${focusRing}`;
const primary = `rounded bg-blue-700 px-3 py-1 font-medium hover:bg-blue-600 disabled:opacity-50 ${focusRing}`;
const field = `w-full rounded bg-slate-800 px-2 py-1 text-white placeholder:text-slate-400 ${focusRing}`;

export function PollsPanel({ state, api, self }: { state: PollsState; api: ParticipantApi; self: Self | null }) {
  const t = useT();
  const { run, notice } = useListAction<PollResponse>(state);
  const isModerator = self?.isModerator === true;

  const list = state.polls ? visiblePolls(state.polls, isModerator) : null;
  return (
    <div className="space-y-4">
      {isModerator && (
        <NewPollForm onCreate={(body) => run(() => api('POST', '/polls/public', body), t.polls.create.created)} />
      )}
      <PanelList
        items={list}
        failed={state.failed}
        empty={t.polls.empty}
        className="space-y-3"
        item={(poll) => (
          <li key={poll.id}>
            <PollCard
              poll={poll}
              ballot={myBallot(poll, self?.externalUserId ?? null, state.cast)}
              isModerator={isModerator}
              onVote={(optionIds) =>
                run(async () => {
                  const updated = await api('POST', `/polls/public/${poll.id}/vote`, { optionIds });
                  state.remember(poll.id, optionIds);
                  return updated;
                }, t.polls.voted)
              }
              onStatus={(to) =>
                run(
                  () => api('POST', `/polls/public/${poll.id}/${to}`),
                  to === 'open' ? t.polls.opened : t.polls.closed,
                )
              }
            />
          </li>
        )}
      />
      <p role="status" className="min-h-5 text-slate-300">
        {notice}
      </p>
    </div>
  );
}

function PollCard({
  poll,
  ballot,
  isModerator,
  onVote,
  onStatus,
}: {
  poll: PollResponse;
  ballot: string[];
  isModerator: boolean;
  onVote: (optionIds: string[]) => Promise<boolean>;
  onStatus: (to: 'open' | 'close') => Promise<boolean>;
}) {
  const t = useT();
  const headingId = useId();
  const [picked, setPicked] = useState<string[]>(ballot);
  const [busy, setBusy] = useState(false);
  const ballotKey = ballot.join(',');
  useEffect(() => setPicked(ballotKey ? ballotKey.split(',') : []), [ballotKey]);

  const busyWhile = (p: Promise<unknown>) => {
    setBusy(true);
    void p.finally(() => setBusy(false));
  };
  const toggle = (id: string, on: boolean) =>
    setPicked((cur) => (poll.allowMultiple ? (on ? [...cur, id] : cur.filter((x) => x !== id)) : [id]));

  return (
    <article aria-labelledby={headingId} className="rounded border border-slate-700 p-3">
      <div className="flex items-start justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {poll.question}
        </h3>
        <span className="shrink-0 rounded bg-slate-700 px-1.5 text-xs">{t.polls.status[poll.status]}</span>
      </div>
      {poll.isAnonymous && <p className="text-xs text-slate-400">{t.polls.anonymous}</p>}
      {poll.status === 'OPEN' && (
        <form
          className="mt-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (picked.length) busyWhile(onVote(picked));
          }}
        >
          <fieldset>
            <legend className="sr-only">{poll.allowMultiple ? t.polls.chooseMany : t.polls.chooseOne}</legend>
            {poll.options.map((o) => (
              <label key={o.id} className="flex items-center gap-2 py-0.5">
                <input
                  type={poll.allowMultiple ? 'checkbox' : 'radio'}
                  name={`poll-${poll.id}`}
                  value={o.id}
                  checked={picked.includes(o.id)}
                  onChange={(e) => toggle(o.id, e.target.checked)}
                  className={focusRing}
                />
                {o.text}
              </label>
            ))}
          </fieldset>
          <div className="mt-1 flex items-center gap-2">
            <button type="submit" className={primary} disabled={busy || picked.length === 0}>
              {ballot.length ? t.polls.changeVote : t.polls.vote}
            </button>
            {ballot.length > 0 && <span className="text-xs text-slate-300">{t.polls.youVoted}</span>}
          </div>
        </form>
      )}
      {poll.status !== 'DRAFT' && <Results poll={poll} />}
      {isModerator && poll.status !== 'CLOSED' && (
        <div className="mt-2 flex gap-2">
          {poll.status === 'DRAFT' && (
            <button
              type="button"
              className={button}
              aria-label={t.polls.openLabel(poll.question)}
              disabled={busy}
              onClick={() => busyWhile(onStatus('open'))}
            >
              {t.polls.open}
            </button>
          )}
          <button
            type="button"
            className={button}
            aria-label={t.polls.closeLabel(poll.question)}
            disabled={busy}
            onClick={() => busyWhile(onStatus('close'))}
          >
            {t.polls.close}
          </button>
        </div>
      )}
    </article>
  );
}

function Results({ poll }: { poll: PollResponse }) {
  const t = useT();
  return (
    <div className="mt-2">
      <p className="text-xs text-slate-300">
        {t.polls.results} · {t.polls.votes(poll.totalVotes)}
      </p>
      <ul aria-label={t.polls.results} className="mt-1 space-y-1">
        {tally(poll).map((row) => (
          <li key={row.id}>
            <span className={row.leading ? 'font-semibold' : undefined}>
              {t.polls.optionResult(row.text, row.count, row.percent)}
            </span>
            <span aria-hidden="true" className="mt-0.5 block h-1.5 rounded bg-slate-700">
              <span className="block h-full rounded bg-sky-400" style={{ width: `${row.percent}%` }} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function NewPollForm({ onCreate }: { onCreate: (body: PollCreateBody) => Promise<boolean> }) {
  const t = useT();
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState(['', '']);
  const [flags, setFlags] = useState({ allowMultiple: false, isAnonymous: false, openNow: true });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const questionId = useId();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const draft = pollDraft(question, options, flags);
    if (!draft.ok) return setError(t.polls.errors[draft.error]);
    setError(null);
    setBusy(true);
    if (await onCreate(draft.body)) {
      setQuestion('');
      setOptions(['', '']);
    }
    setBusy(false);
  };

  return (
    <form onSubmit={submit} aria-label={t.polls.create.title} className="space-y-2 rounded border border-slate-700 p-3">
      <h3 className="font-semibold">{t.polls.create.title}</h3>
      <label htmlFor={questionId} className="block text-xs text-slate-300">
        {t.polls.create.question}
      </label>
      <input
        id={questionId}
        className={field}
        value={question}
        maxLength={POLL_LIMITS.questionMax}
        onChange={(e) => setQuestion(e.target.value)}
        aria-describedby={error ? errorId : undefined}
      />
      {options.map((value, i) => (
        <div key={i} className="flex gap-1">
          <input
            aria-label={t.polls.create.option(i + 1)}
            placeholder={t.polls.create.option(i + 1)}
            className={field}
            value={value}
            maxLength={POLL_LIMITS.optionMax}
            onChange={(e) => setOptions((cur) => cur.map((o, j) => (j === i ? e.target.value : o)))}
          />
          {options.length > POLL_LIMITS.minOptions && (
            <button
              type="button"
              className={button}
              aria-label={t.polls.create.removeOption(i + 1)}
              onClick={() => setOptions((cur) => cur.filter((_, j) => j !== i))}
            >
              <span aria-hidden="true">×</span>
            </button>
          )}
        </div>
      ))}
      {options.length < POLL_LIMITS.maxOptions && (
        <button type="button" className={button} onClick={() => setOptions((cur) => [...cur, ''])}>
          {t.polls.create.addOption}
        </button>
      )}
      {(['allowMultiple', 'isAnonymous', 'openNow'] as const).map((key) => (
        <label key={key} className="flex items-center gap-2">
          <input
            type="checkbox"
            className={focusRing}
            checked={flags[key]}
            onChange={(e) => setFlags((f) => ({ ...f, [key]: e.target.checked }))}
          />
          {key === 'allowMultiple'
            ? t.polls.create.allowMultiple
            : key === 'isAnonymous'
              ? t.polls.create.anonymous
              : t.polls.create.openNow}
        </label>
      ))}
      {error && (
        <p id={errorId} role="alert" className="text-red-300">
          {error}
        </p>
      )}
      <button type="submit" className={primary} disabled={busy}>
        {t.polls.create.submit}
      </button>
    </form>
  );
}
