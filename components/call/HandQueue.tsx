'use client';

import type { ParticipantApi, RosterResponse } from '@/components/call/participant-api';
import { useHands } from '@/components/call/useHands';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';
import { Icon } from '@/components/call/icons';

/**
 * For hosts and moderators, at the top of the People panel: raised hands, first up first (the
 * server-written hand attribute: useHands), each with Lower. A name takes the row's width and
 * wraps between words, never beside a button that squeezes it.
 */
export function HandQueue({
  roster,
  api,
  onNotice,
}: {
  roster: RosterResponse | null;
  api: ParticipantApi;
  onNotice: (text: string) => void;
}) {
  const t = useT();
  const hands = useHands();
  if (hands.length === 0) return null;
  return (
    <>
      <h3 className="mb-1 font-semibold">{t.hands.queue}</h3>
      <ol className="mb-3 space-y-1" aria-label={t.hands.queue}>
        {hands.map(({ participant: p }, i) => {
          const name = p.name || p.identity;
          const id = roster?.participants.find((r) => r.mediaIdentity === p.identity)?.id;
          return (
            <li key={p.identity} className="flex items-center gap-2 rounded bg-amber-950/40 px-2 py-1">
              <span className="shrink-0 text-amber-300">
                <Icon name="hand" size={18} />
              </span>
              <span className="min-w-0 flex-1 [overflow-wrap:break-word]">
                {i + 1}. {name}
              </span>
              {id && (
                <button
                  type="button"
                  aria-label={t.hands.lowerFor(name)}
                  className={`shrink-0 whitespace-nowrap rounded bg-slate-700 px-2 py-1 text-xs hover:bg-slate-600 ${focusRing}`}
                  onClick={() =>
                    api('POST', `/me/participants/${id}/lower-hand`).catch((err: Error) => onNotice(err.message))
                  }
                >
                  {t.hands.lowerShort}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}
