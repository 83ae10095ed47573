'use client';

import { useEffect, useRef } from 'react';
import { toast } from '@/components/call/toasts';
import type { PollResponse } from '@/components/call/participant-api';
import { useT } from '@/components/call/useT';

/**
 * A poll that opens while the polls panel is closed pops up as a toast with its question and
 * Vote; opening the panel dismisses it. Polls already open when the call opened are counted on the
 * button, not announced.
 */
export function usePollToasts(polls: PollResponse[] | null, open: boolean, openPolls: () => void) {
  const t = useT();
  const announced = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (polls === null) return;
    const live = polls.filter((p) => p.status === 'OPEN');
    if (announced.current === null || open) {
      // Opening the panel answers the toasts: they go.
      if (open) for (const id of announced.current ?? []) toast.dismiss(`poll-${id}`);
      announced.current = new Set([...(announced.current ?? []), ...live.map((p) => p.id)]);
      return;
    }
    for (const poll of live) {
      if (announced.current.has(poll.id)) continue;
      announced.current.add(poll.id);
      toast(t.polls.toast, {
        id: `poll-${poll.id}`,
        description: poll.question,
        duration: 10_000,
        action: { label: t.polls.vote, onClick: openPolls },
      });
    }
  }, [polls, open, t, openPolls]);
}
