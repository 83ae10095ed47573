'use client';

import { useSyncExternalStore } from 'react';
import type { Participant } from 'livekit-client';
import { useHandRaised } from '@/components/call/useHandRaised';
import { reactionOf, subscribeReactions } from '@/components/call/reactions-store';
import { useT } from '@/components/call/useT';
import { Icon } from '@/components/call/icons';

/**
 * Over a tile's top right corner: a raised hand (the server-written hand attribute) as an amber
 * badge with the hand icon and its words, and the participant's latest reaction, large, for a few
 * seconds.
 */
export function TileBadges({ participant }: { participant: Participant }) {
  const t = useT();
  const hand = useHandRaised(participant);
  const reaction = useSyncExternalStore(
    subscribeReactions,
    () => reactionOf(participant.identity),
    () => null,
  );
  if (!hand && !reaction) return null;
  return (
    <div className="pointer-events-none absolute right-2 top-2 z-10 flex items-start gap-2">
      {hand && (
        <span
          role="img"
          aria-label={t.hands.raisedBadge}
          className="convene-hand flex items-center gap-1.5 rounded-full bg-amber-400 px-2.5 py-1 text-sm font-semibold text-slate-950 shadow-lg"
        >
          <Icon name="hand" size={22} />
          <span aria-hidden="true" className="max-sm:hidden">
            {t.hands.raisedBadge}
          </span>
        </span>
      )}
      {reaction && (
        <span
          role="img"
          aria-label={t.hands.reacted(participant.name || participant.identity, reaction)}
          className="convene-reaction text-5xl leading-none drop-shadow-lg"
        >
          {reaction}
        </span>
      )}
    </div>
  );
}
