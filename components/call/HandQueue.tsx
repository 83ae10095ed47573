'use client';

import type { ParticipantApi, RosterResponse } from '@/components/call/participant-api';
import { useHands } from '@/components/call/useHands';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';

/** For hosts and moderators, at the top of the People panel: raised hands, first up first, each with Lower hand. */
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
            <li key={p.identity} className="flex items-center justify-between gap-2">
              <span className="truncate">
                {i + 1}. ✋ {name}
              </span>
              {id && (
                <button
                  type="button"
                  className={`shrink-0 rounded bg-slate-700 px-2 py-1 text-xs hover:bg-slate-600 ${focusRing}`}
                  onClick={() =>
                    api('POST', `/me/participants/${id}/lower-hand`).catch((err: Error) => onNotice(err.message))
                  }
                >
                  {t.hands.lowerFor(name)}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}
