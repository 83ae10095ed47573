'use client';

import { useEffect, useRef, useState } from 'react';
import { useT } from '@/components/call/useT';
import type { CheckResult, CheckStep } from '@/components/call/precall/connection-check';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; step: CheckStep }
  | { kind: 'done'; result: CheckResult }
  | { kind: 'failed' };

/**
 * The pre-join screen's setup check, beside the camera preview: a speaker test (a short sound) and,
 * on request, a connection test (components/call/precall/connection-check.ts, loaded then). Nothing
 * runs until asked, so a person who just presses Join waits for nothing; joining (this leaves the
 * page's tree) stops a test in progress.
 */
export function PrecallCheck({ token, serverUrl }: { token: string; serverUrl: string }) {
  const t = useT().precall;
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [sound, setSound] = useState(false);
  const run = useRef<AbortController | null>(null);
  useEffect(() => () => run.current?.abort(), []);

  const test = async () => {
    run.current?.abort();
    const controller = new AbortController();
    run.current = controller;
    setState({ kind: 'running', step: 'server' });
    try {
      const { runConnectionCheck } = await import('@/components/call/precall/connection-check');
      const result = await runConnectionCheck({
        token,
        serverUrl,
        signal: controller.signal,
        onStep: (step) => setState({ kind: 'running', step }),
      });
      if (!controller.signal.aborted) setState({ kind: 'done', result });
    } catch {
      if (!controller.signal.aborted) setState({ kind: 'failed' });
    }
  };

  const playSound = () => {
    const audio = new Audio('/sounds/knock.wav');
    setSound(true);
    audio.onended = () => setSound(false);
    void audio.play().catch(() => setSound(false));
  };

  const button =
    'rounded bg-slate-800/90 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60 focus:outline-none focus-visible:ring-4 focus-visible:ring-white';
  const result = state.kind === 'done' ? state.result : null;
  return (
    <section aria-labelledby="convene-precall-title" className="w-full max-w-md text-center text-sm text-slate-200">
      <h2 id="convene-precall-title" className="sr-only">
        {t.title}
      </h2>
      <div className="flex flex-wrap justify-center gap-2">
        <button type="button" className={button} onClick={playSound} aria-describedby="convene-precall-sound">
          {t.speakers}
        </button>
        <button type="button" className={button} onClick={test} disabled={state.kind === 'running'}>
          {result || state.kind === 'failed' ? t.again : t.connection}
        </button>
      </div>
      <p id="convene-precall-sound" className={sound ? 'mt-2' : 'sr-only'}>
        {t.speakersHint}
      </p>
      <div role="status" aria-live="polite" className="mt-2" data-testid="precall-status">
        {state.kind === 'running' && <p>{t.steps[state.step]}</p>}
        {state.kind === 'failed' && <p>{t.failed}</p>}
        {result && (
          <div data-testid="precall-verdict" data-verdict={result.verdict}>
            <p className="font-semibold text-white">
              {result.verdict === 'blocked' ? t.blocked[result.blocked ?? 'server'] : t.verdict[result.verdict]}
            </p>
            <p className="mt-1">
              {t.advice[result.verdict === 'blocked' ? (result.blocked ?? 'server') : result.verdict]}
            </p>
            {result.verdict !== 'blocked' && (
              <p className="mt-1 text-xs text-slate-300" data-testid="precall-figures">
                {t.figures(result.rttMs ?? null, result.uploadKbps ?? null, result.downloadKbps ?? null)}
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
