'use client';

import { useCallback, useState } from 'react';
import { POLL_TOPIC, mergePoll } from '@/components/call/engagement-state';
import type { ParticipantApi, PollResponse } from '@/components/call/participant-api';
import { useLiveList } from '@/components/call/useLiveList';
import type { LiveMessageBody } from '@/lib/live-messages';

const pollOf = (body: LiveMessageBody<typeof POLL_TOPIC>): PollResponse => body.poll;

/**
 * The room's polls through the participant-token API (/api/v1/polls/public): loaded once, kept
 * current from the `convene.polls` data-channel messages, re-read after a reconnect and after
 * the viewer's own actions.
 */
export function usePolls(api: ParticipantApi) {
  const load = useCallback(async () => (await api('GET', '/polls/public?limit=100')).data, [api]);
  const { items: polls, failed, refresh, apply } = useLiveList(load, POLL_TOPIC, pollOf, mergePoll);
  const [cast, setCast] = useState<Record<string, string[]>>({});
  const remember = useCallback(
    (pollId: string, optionIds: string[]) => setCast((c) => ({ ...c, [pollId]: optionIds })),
    [],
  );
  return { polls, failed, refresh, apply, cast, remember };
}

export type PollsState = ReturnType<typeof usePolls>;
