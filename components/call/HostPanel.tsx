'use client';

import { useCallback, useEffect, useState } from 'react';
import { t } from '@/lib/i18n/en';

interface Waiting {
  id: string;
  displayName: string;
}

/**
 * Host controls in the call (shown to HOST/MODERATOR tokens; the server checks the role in its
 * own records on every action): mute everyone, lock the room, admit or refuse waiting people.
 */
export function HostPanel({ token }: { token: string }) {
  const [locked, setLocked] = useState<boolean | null>(null);
  const [waiting, setWaiting] = useState<Waiting[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const call = useCallback(
    async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`/api/v1/me${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json().catch(() => null);
      if (!res.ok) throw new Error(json?.error?.message ?? t.host.failed);
      return json;
    },
    [token],
  );

  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      try {
        const [self, list] = await Promise.all([call('GET', ''), call('GET', '/waiting')]);
        if (!stopped) {
          setLocked(self.room.isLocked);
          setWaiting(list.data);
        }
      } catch {
        // Not a moderator in our records, or offline: the panel stays quiet.
      }
      if (!stopped) setTimeout(refresh, 3000);
    };
    void refresh();
    return () => {
      stopped = true;
    };
  }, [call]);

  const act = (fn: () => Promise<unknown>, done: string) => () =>
    fn().then(
      () => setNotice(done),
      (err: Error) => setNotice(err.message),
    );

  return (
    <aside aria-label={t.host.title} className="absolute right-2 top-2 z-20 w-64 rounded bg-slate-900/90 p-3 text-sm text-white shadow">
      <h2 className="font-semibold">{t.host.title}</h2>
      <div className="mt-2 flex gap-2">
        <button type="button" className="rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 focus-visible:ring-2" onClick={act(() => call('POST', '/mute-all'), t.host.muted)}>
          {t.host.muteAll}
        </button>
        {locked !== null && (
          <button
            type="button"
            aria-pressed={locked}
            className="rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 focus-visible:ring-2"
            onClick={act(async () => setLocked((await call('POST', '/lock', { locked: !locked })).isLocked), locked ? t.host.unlocked : t.host.locked)}
          >
            {locked ? t.host.unlock : t.host.lock}
          </button>
        )}
      </div>
      {waiting.length > 0 && (
        <ul className="mt-3 space-y-1" aria-label={t.host.waiting}>
          {waiting.map((w) => (
            <li key={w.id} className="flex items-center justify-between gap-2">
              <span className="truncate">{w.displayName}</span>
              <span className="flex gap-1">
                <button type="button" className="rounded bg-emerald-700 px-2" onClick={act(() => call('POST', `/waiting/${w.id}/admit`), t.host.admitted(w.displayName))}>
                  {t.host.admit}
                </button>
                <button type="button" className="rounded bg-red-800 px-2" onClick={act(() => call('POST', `/waiting/${w.id}/deny`), t.host.denied(w.displayName))}>
                  {t.host.deny}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {notice && (
        <p role="status" className="mt-2 text-slate-300">
          {notice}
        </p>
      )}
    </aside>
  );
}
