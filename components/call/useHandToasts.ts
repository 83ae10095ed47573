'use client';

import { useEffect, useRef } from 'react';
import { toast } from '@/components/call/toasts';
import { useCall } from '@/components/call/call-context';
import { useHands } from '@/components/call/useHands';
import { useT } from '@/components/call/useT';

/**
 * For hosts and moderators: a toast when someone raises their hand ("Amy raised their hand",
 * with People to see the queue), gone when the hand comes down. Hands already up when the call
 * opened are in the queue, not announced. The hands are the server-written hand attribute of each
 * participant (useHands), never guessed from names or text.
 */
export function useHandToasts() {
  const t = useT();
  const { self, togglePanel } = useCall();
  const hands = useHands();
  const seen = useRef<Set<string> | null>(null);
  const moderator = !!self?.isModerator;
  useEffect(() => {
    const up = new Set(hands.map((h) => h.participant.identity));
    if (seen.current === null || !moderator) {
      seen.current = up;
      return;
    }
    for (const { participant } of hands) {
      if (seen.current.has(participant.identity) || participant.isLocal) continue;
      toast(t.hands.raisedToast(participant.name || participant.identity), {
        id: `hand-${participant.identity}`,
        duration: 8000,
        action: { label: t.people.title, onClick: () => togglePanel('people') },
      });
    }
    for (const identity of seen.current) if (!up.has(identity)) toast.dismiss(`hand-${identity}`);
    seen.current = up;
  }, [hands, moderator, t, togglePanel]);
}
