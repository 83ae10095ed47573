'use client';

import { useCallback, useEffect, useState } from 'react';
import { useT } from '@/components/call/useT';

interface Waiting {
  id: string;
  displayName: string;
}

/** Who the participant token belongs to, from OUR records (GET /api/v1/me). */
export interface Self {
  externalUserId: string;
  displayName: string;
  isModerator: boolean;
}

export type ParticipantApi = (method: string, path: string, body?: unknown) => Promise<any>;

/** Calls /api/v1{path} with the participant's own token (never a tenant key); throws with the API's message. */
export function useParticipantApi(token: string): ParticipantApi {
  const t = useT();
  return useCallback(
    async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json().catch(() => null);
      if (!res.ok) throw new Error(json?.error?.message ?? t.host.failed);
      return json;
    },
    [token, t],
  );
}

/** Reads GET /api/v1/me once (retrying every 5 s while it fails): null until known. */
export function useSelf(api: ParticipantApi): Self | null {
  const [self, setSelf] = useState<Self | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const me = await api('GET', '/me');
        if (!stopped)
          setSelf({
            externalUserId: me.participant.externalUserId,
            displayName: me.participant.displayName,
            isModerator: me.isModerator === true,
          });
      } catch {
        if (!stopped) timer = setTimeout(load, 5000);
      }
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api]);
  return self;
}

const button =
  'rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300';

/**
 * Host controls in the call (shown to HOST/MODERATOR per GET /api/v1/me; the server checks the
 * role in its own records on every action): mute everyone, lock the room, admit or refuse
 * waiting people. It keeps polling while its panel is closed, so the toggle can show who waits.
 */
export function HostPanel({ token, onWaitingCount }: { token: string; onWaitingCount?: (n: number) => void }) {
  const t = useT();
  const api = useParticipantApi(token);
  const [locked, setLocked] = useState<boolean | null>(null);
  const [waiting, setWaiting] = useState<Waiting[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      try {
        const [self, list] = await Promise.all([api('GET', '/me'), api('GET', '/me/waiting')]);
        if (!stopped) {
          setLocked(self.room.isLocked);
          setWaiting(list.data);
        }
      } catch {
        // Not a moderator in our records, or offline: the panel stays quiet.
      }
      if (!stopped) timer = setTimeout(refresh, 3000);
    };
    void refresh();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api]);

  useEffect(() => onWaitingCount?.(waiting.length), [waiting.length, onWaitingCount]);

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
              <li key={w.id} className="flex items-center justify-between gap-2">
                <span className="truncate">{w.displayName}</span>
                <span className="flex gap-1">
                  <button
                    type="button"
                    aria-label={t.host.admitLabel(w.displayName)}
                    className="rounded bg-emerald-700 px-2 py-1 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
                    onClick={act(() => api('POST', `/me/waiting/${w.id}/admit`), t.host.admitted(w.displayName))}
                  >
                    {t.host.admit}
                  </button>
                  <button
                    type="button"
                    aria-label={t.host.denyLabel(w.displayName)}
                    className="rounded bg-red-800 px-2 py-1 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
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
    </div>
  );
}
