'use client';

import { useSyncExternalStore } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { floatingReactions, subscribeReactions } from '@/components/call/reactions-store';
import { useT } from '@/components/call/useT';

const none: readonly never[] = [];

/**
 * Reactions as Daily shows them: each a large emoji with the sender's name rising up the stage
 * from its lower left and fading out after a few seconds (reactions-store.ts bounds how many).
 * Screen readers hear them from the tiles' badges; these are for the eye.
 */
export function FloatingReactions() {
  const t = useT();
  const room = useRoomContext();
  const list = useSyncExternalStore(subscribeReactions, floatingReactions, () => none);
  if (list.length === 0) return null;
  return (
    <div className="convene-reactions-layer" aria-hidden="true" data-testid="floating-reactions">
      {list.map(({ id, identity, emoji }) => {
        const who =
          identity === room.localParticipant.identity
            ? t.chat.you
            : room.getParticipantByIdentity(identity)?.name || identity;
        return (
          // Spread across the lower left, each in its own lane.
          <div key={id} className="convene-floating-reaction" style={{ left: `${4 + ((id * 37) % 24)}%` }}>
            <span className="convene-floating-emoji">{emoji}</span>
            <span className="convene-floating-name">{who}</span>
          </div>
        );
      })}
    </div>
  );
}
