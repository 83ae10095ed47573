'use client';

import { useCallback, useRef, useState } from 'react';
import { useLocalParticipant, useRoomContext } from '@livekit/components-react';
import { LIVE_TOPICS, REACTION_EMOJI } from '@/lib/live-topics';
import type { LiveMessage } from '@/lib/live-messages';
import { useLiveMessages } from '@/components/call/useLiveList';
import { addReaction } from '@/components/call/reactions-store';
import { useRaiseHand } from '@/components/call/useRaiseHand';
import { useT } from '@/components/call/useT';
import { useBranding } from '@/components/call/HostedShell';
import { Icon } from '@/components/call/icons';

/** One reaction a second from this browser (readers also cap each sender: reactions-store.ts). */
const REACTION_GAP_MS = 1000;

/**
 * The control bar's own additions before Leave: raise or lower your hand (through the API: the
 * server writes the hand), and emoji reactions (peer to peer on convene.reactions, never stored) —
 * each only where the tenant's hosted-UI settings leave it on (with reactions off, others'
 * reactions are not shown either). Icons are the call's SVG set; emoji are only what is sent.
 */
export function CallExtraControls() {
  const t = useT();
  const { reactionsEnabled } = useBranding();
  const hand = useRaiseHand();
  const room = useRoomContext();
  const { localParticipant } = useLocalParticipant();
  const [picking, setPicking] = useState(false);
  const lastSent = useRef(0);

  const onReaction = useCallback(
    ({ sender, body }: LiveMessage<typeof LIVE_TOPICS.reactions>) => {
      if (sender && reactionsEnabled) addReaction(sender, body.emoji);
    },
    [reactionsEnabled],
  );
  useLiveMessages(LIVE_TOPICS.reactions, onReaction);

  const react = (emoji: (typeof REACTION_EMOJI)[number]) => {
    const now = Date.now();
    if (now - lastSent.current < REACTION_GAP_MS) return;
    lastSent.current = now;
    const payload = new TextEncoder().encode(JSON.stringify({ type: 'reaction', emoji }));
    void localParticipant.publishData(payload, { reliable: true, topic: LIVE_TOPICS.reactions });
    addReaction(room.localParticipant.identity, emoji, now);
    setPicking(false);
  };

  return (
    <>
      {hand.enabled && (
        <button
          type="button"
          className="lk-button convene-hand-button"
          aria-pressed={hand.raised}
          onClick={hand.toggle}
        >
          <Icon name="hand" />
          <span className="lk-button-label">{hand.raised ? t.hands.lower : t.hands.raise}</span>
        </button>
      )}
      {reactionsEnabled && (
        <div className="relative flex">
          <button
            type="button"
            className="lk-button"
            aria-expanded={picking}
            aria-controls="convene-reactions"
            onClick={() => setPicking((p) => !p)}
          >
            <Icon name="smile" />
            <span className="lk-button-label">{t.hands.reactions}</span>
          </button>
          <div
            id="convene-reactions"
            hidden={!picking}
            className="absolute bottom-full left-1/2 z-50 mb-2 flex -translate-x-1/2 gap-1 rounded-lg bg-slate-900 p-1 shadow-lg"
          >
            {REACTION_EMOJI.map((emoji) => (
              <button
                key={emoji}
                type="button"
                aria-label={t.hands.reactWith(emoji)}
                className="rounded px-2 py-1 text-2xl hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
                onClick={() => react(emoji)}
              >
                {emoji}
              </button>
            ))}
          </div>
        </div>
      )}
    </>
  );
}
