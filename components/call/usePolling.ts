'use client';

import { useEffect } from 'react';
import { useFirstSightSeen } from '@/components/call/useFirstSight';

/** A poll's word on the loop: 'stop' when its answer is final; anything else polls again. */
export type PollOutcome = 'stop' | void;

/**
 * Calls `poll` now, then `intervalMs` after each call settles (never two at once), until it
 * answers 'stop', the component unmounts or `poll` changes (pass a stable one; null: no loop).
 * A call that throws is tried again at the next tick. `signal` is aborted once the loop has
 * ended: a call that was under way then must not touch state. In a call, the loop starts once the
 * call has shown the others (useFirstSight).
 */
export function usePolling(poll: ((signal: AbortSignal) => Promise<PollOutcome>) | null, intervalMs: number) {
  const start = useFirstSightSeen();
  useEffect(() => {
    if (!poll || !start) return;
    const loop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const outcome = await poll(loop.signal).catch(() => undefined);
      if (outcome !== 'stop' && !loop.signal.aborted) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      loop.abort();
      clearTimeout(timer);
    };
  }, [poll, intervalMs, start]);
}
