'use client';

import { useCallback, useEffect, useState } from 'react';
import { useParticipants } from '@livekit/components-react';
import type { ParticipantApi, RosterResponse } from '@/components/call/participant-api';

/**
 * For moderators: who in the call is who in OUR records (the media identity names our participant
 * id, which the per-person actions take) and the open breakouts. Re-read whenever someone comes,
 * goes or changes role, and when `refresh` is called (a person's actions opened: a breakout may have
 * opened since); null for everyone else.
 */
export function useCallRoster(api: ParticipantApi, enabled: boolean) {
  const [roster, setRoster] = useState<RosterResponse | null>(null);
  const [asked, setAsked] = useState(0);
  const refresh = useCallback(() => setAsked((n) => n + 1), []);
  const everyone = useParticipants()
    .map((p) => `${p.identity}:${p.metadata ?? ''}`)
    .sort()
    .join('|');
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api('GET', '/me/participants').then(
      (r) => current && setRoster(r),
      () => undefined, // no longer a moderator, or offline: the actions stay as they were
    );
    return () => {
      current = false;
    };
  }, [api, enabled, everyone, asked]);
  return { roster: enabled ? roster : null, refresh };
}
