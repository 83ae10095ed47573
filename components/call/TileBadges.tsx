'use client';

import { useSyncExternalStore } from 'react';
import type { Participant } from 'livekit-client';
import { useHandRaised } from '@/components/call/useHandRaised';
import { reactionOf, subscribeReactions } from '@/components/call/reactions-store';
import { useT } from '@/components/call/useT';

/** Over a tile's top right corner: a raised hand, and the participant's latest reaction for a few seconds. */
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
    <div className="pointer-events-none absolute right-2 top-2 z-10 flex gap-1 text-2xl">
      {hand && (
        <span role="img" aria-label={t.hands.raisedBadge} className="convene-hand rounded bg-amber-500/90 px-1">
          ✋
        </span>
      )}
      {reaction && (
        <span
          role="img"
          aria-label={t.hands.reacted(participant.name || participant.identity, reaction)}
          className="convene-reaction"
        >
          {reaction}
        </span>
      )}
    </div>
  );
}
