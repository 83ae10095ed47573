'use client';

import { useEffect, useRef } from 'react';
import { toast } from '@/components/call/toasts';
import type { ParticipantApi, WaitingParticipantResponse } from '@/components/call/participant-api';
import { useT } from '@/components/call/useT';
import { playKnock } from '@/components/call/knock-sound';
import { KnockSoundToggle } from '@/components/call/KnockSoundToggle';

/**
 * A toast for each person who starts waiting, with Admit and Deny inline, so a knock is not
 * missed while the host controls are closed (the toggle's count is the badge). It stays until
 * acted on or dismissed, and goes when they no longer wait (admitted elsewhere, gave up).
 * A knock sounds once for each batch of new arrivals unless this browser muted it (the toggle
 * is in each toast and in the host controls).
 */
export function useKnockToasts(waiting: WaitingParticipantResponse[], api: ParticipantApi, onDone: () => void) {
  const t = useT();
  const shown = useRef(new Set<string>());
  useEffect(() => {
    const ids = new Set(waiting.map((w) => w.id));
    for (const id of shown.current)
      if (!ids.has(id)) {
        toast.dismiss(id);
        shown.current.delete(id);
      }
    let arrived = false;
    for (const w of waiting) {
      if (shown.current.has(w.id)) continue;
      arrived = true;
      shown.current.add(w.id);
      const decide = (verb: 'admit' | 'deny') => () =>
        void api('POST', `/me/waiting/${w.id}/${verb}`).then(onDone, (err: Error) => toast(err.message));
      toast(t.knock.waiting(w.displayName), {
        id: w.id,
        duration: Number.POSITIVE_INFINITY,
        description: <KnockSoundToggle />,
        action: { label: t.host.admit, onClick: decide('admit') },
        cancel: { label: t.host.deny, onClick: decide('deny') },
      });
    }
    if (arrived) playKnock();
  }, [waiting, api, onDone, t]);
}
