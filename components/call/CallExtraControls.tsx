'use client';

import { useCallback, useRef, useState } from 'react';
import { useLocalParticipant, useRoomContext } from '@livekit/components-react';
import { LIVE_TOPICS, REACTION_EMOJI, type LiveMessage } from '@/lib/live-topics';
import { useHandRaised } from '@/components/call/useHandRaised';
import { useLiveMessages } from '@/components/call/useLiveList';
import { useParticipantApi } from '@/components/call/useParticipantApi';
import { useSelf } from '@/components/call/useSelf';
import { addReaction } from '@/components/call/reactions-store';
import { EndMeetingButton } from '@/components/call/EndMeetingButton';
import { useT } from '@/components/call/useT';
import { useBranding } from '@/components/call/HostedShell';

/** One reaction a second from this browser (readers also cap each sender: reactions-store.ts). */
const REACTION_GAP_MS = 1000;

/**
 * The control bar's own additions before Leave: raise or lower your hand (through the API: the
 * server writes the hand), emoji reactions (peer to peer on convene.reactions, never stored), and,
 * for hosts and moderators, End meeting for everyone. Hand and reactions only where the tenant's
 * hosted-UI settings leave them on (with reactions off, others' reactions are not shown either).
 */
export function CallExtraControls({ token }: { token: string }) {
  const t = useT();
  const { raiseHandEnabled, reactionsEnabled } = useBranding();
  const api = useParticipantApi(token);
  const self = useSelf(api);
  const room = useRoomContext();
  const { localParticipant } = useLocalParticipant();
  const raised = useHandRaised(localParticipant);
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
      {raiseHandEnabled && (
        <button
          type="button"
          className="lk-button"
          aria-pressed={raised}
          onClick={() => void api('POST', '/me/hand', { raised: !raised }).catch(() => undefined)}
        >
          <span aria-hidden="true">✋</span>
          <span className="lk-button-label">{raised ? t.hands.lower : t.hands.raise}</span>
        </button>
      )}
      {reactionsEnabled && (
        <div className="relative">
          <button
            type="button"
            className="lk-button"
            aria-expanded={picking}
            aria-controls="convene-reactions"
            onClick={() => setPicking((p) => !p)}
          >
            <span aria-hidden="true">😀</span>
            <span className="lk-button-label">{t.hands.reactions}</span>
          </button>
          <div
            id="convene-reactions"
            hidden={!picking}
            className="absolute bottom-full left-1/2 mb-2 flex -translate-x-1/2 gap-1 rounded-lg bg-slate-900 p-1 shadow-lg"
          >
            {REACTION_EMOJI.map((emoji) => (
              <button
                key={emoji}
                type="button"
                aria-label={t.hands.reactWith(emoji)}
                className="rounded px-2 py-1 text-xl hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
                onClick={() => react(emoji)}
              >
                {emoji}
              </button>
            ))}
          </div>
        </div>
      )}
      {self?.isModerator && <EndMeetingButton api={api} />}
    </>
  );
}
