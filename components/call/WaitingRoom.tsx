'use client';

import { useEffect, useState } from 'react';
import { t } from '@/lib/i18n/en';

type State = 'waiting' | 'denied' | 'lost';
const POLL_MS = 2000;

/**
 * The page a parked participant waits on. Its credential is the admission secret from the URL
 * fragment (never the tenant key): read once, stripped from the address bar, kept for this tab.
 * When the host admits, it continues to the join URL the admission endpoint returns.
 */
export function WaitingRoom({ roomId, participantId }: { roomId: string | null; participantId: string | null }) {
  const [state, setState] = useState<State>('waiting');

  useEffect(() => {
    if (!roomId || !participantId) return setState('lost');
    const storageKey = `convene.admission.${participantId}`;
    const fromHash = window.location.hash.slice(1);
    if (fromHash) {
      sessionStorage.setItem(storageKey, fromHash);
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    const secret = sessionStorage.getItem(storageKey);
    if (!secret) return setState('lost');
    let stopped = false;
    const poll = async () => {
      try {
        const res = await fetch(`/api/v1/rooms/${encodeURIComponent(roomId)}/participants/${encodeURIComponent(participantId)}/admission`, {
          headers: { authorization: `Bearer ${secret}` },
          cache: 'no-store',
        });
        if (res.status === 404) return setState('lost');
        if (res.ok) {
          const body = (await res.json()) as { status: string; joinUrl: string | null };
          if (body.status === 'approved' && body.joinUrl) return window.location.replace(body.joinUrl);
          if (body.status === 'denied') return setState('denied');
        }
      } catch {
        // A network blip: keep waiting and try again.
      }
      if (!stopped) setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [roomId, participantId]);

  const text = state === 'waiting' ? t.waiting : state === 'denied' ? t.errors.denied : t.waiting.lost;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-[#111] p-6 text-center text-white">
      <div role={state === 'waiting' ? 'status' : 'alert'} aria-live="polite" data-testid={`waiting-${state}`} className="max-w-md">
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="mt-3 text-slate-300">{text.body}</p>
      </div>
    </main>
  );
}
