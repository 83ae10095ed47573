'use client';

import { useCallback, useEffect, useState } from 'react';
import { focusRing } from '@/components/call/focus-ring';
import type { WaitingParticipantResponse } from '@/components/call/participant-api';
import { useCall } from '@/components/call/call-context';
import { MeetingTools } from '@/components/call/MeetingTools';
import { usePolling } from '@/components/call/usePolling';
import { useKnockToasts } from '@/components/call/useKnockToasts';
import { useT } from '@/components/call/useT';

const button = `flex items-center gap-1.5 whitespace-nowrap rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 ${focusRing}`;

/**
 * Host controls in the call (shown to HOST/MODERATOR per GET /api/v1/me; the server checks the
 * role in its own records on every action): mute everyone, lock the room, admit or refuse
 * waiting people, recording and captions (MeetingTools). It keeps polling while its panel is
 * closed, so the toggle can show who waits.
 */
export function HostPanel({ onWaitingCount }: { onWaitingCount?: (n: number) => void }) {
  const t = useT();
  const { api } = useCall();
  const [locked, setLocked] = useState<boolean | null>(null);
  const [waiting, setWaiting] = useState<WaitingParticipantResponse[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = useCallback(
    async (signal: AbortSignal) => {
      const [self, list] = await Promise.all([api('GET', '/me'), api('GET', '/me/waiting')]);
      if (signal.aborted) return;
      setLocked(self.room.isLocked);
      setWaiting(list.data);
    },
    [api],
  );
  // A failed read (not a moderator in our records, or offline) leaves the panel quiet until the next one.
  usePolling(refresh, 3000);

  useEffect(() => onWaitingCount?.(waiting.length), [waiting.length, onWaitingCount]);
  const reread = useCallback(() => {
    const once = new AbortController();
    void refresh(once.signal).catch(() => undefined);
  }, [refresh]);
  useKnockToasts(waiting, api, reread);

  const act = (fn: () => Promise<unknown>, done: string) => () =>
    fn().then(
      () => setNotice(done),
      (err: Error) => setNotice(err.message),
    );

  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button} onClick={act(() => api('POST', '/me/mute-all'), t.host.muted)}>
          {t.host.muteAll}
        </button>
        {locked !== null && (
          <button
            type="button"
            aria-pressed={locked}
            className={button}
            onClick={act(
              async () => setLocked((await api('POST', '/me/lock', { locked: !locked })).isLocked),
              locked ? t.host.unlocked : t.host.locked,
            )}
          >
            {locked ? t.host.unlock : t.host.lock}
          </button>
        )}
      </div>
      {waiting.length > 0 && (
        <>
          <h3 className="mt-3 font-semibold">{t.host.waiting}</h3>
          <ul className="mt-1 space-y-1" aria-label={t.host.waiting}>
            {waiting.map((w) => (
              <li key={w.id} className="flex items-center gap-2">
                <span className="min-w-0 flex-1 [overflow-wrap:break-word]">{w.displayName}</span>
                <span className="flex shrink-0 gap-1">
                  <button
                    type="button"
                    aria-label={t.host.admitLabel(w.displayName)}
                    className={`whitespace-nowrap rounded bg-emerald-700 px-2 py-1 ${focusRing}`}
                    onClick={act(() => api('POST', `/me/waiting/${w.id}/admit`), t.host.admitted(w.displayName))}
                  >
                    {t.host.admit}
                  </button>
                  <button
                    type="button"
                    aria-label={t.host.denyLabel(w.displayName)}
                    className={`whitespace-nowrap rounded bg-red-800 px-2 py-1 ${focusRing}`}
                    onClick={act(() => api('POST', `/me/waiting/${w.id}/deny`), t.host.denied(w.displayName))}
                  >
                    {t.host.deny}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <p role="status" className="mt-2 min-h-5 text-slate-300">
        {notice}
      </p>
      <MeetingTools />
    </div>
  );
}
