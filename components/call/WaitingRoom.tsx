'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdmissionResponse } from '@/components/call/participant-api';
import { useT } from '@/components/call/useT';
import { BrandMark } from '@/components/call/HostedShell';
import { useEmbedBridge } from '@/components/call/useEmbedBridge';
import { usePolling, type PollOutcome } from '@/components/call/usePolling';
import { WaitingPreview } from '@/components/call/WaitingPreview';

/** The join URL to continue to, in the language this page speaks (the admission endpoint does not know it). */
function withLang(joinUrl: string, lang: string | null): string {
  if (!lang) return joinUrl;
  const url = new URL(joinUrl, window.location.href);
  if (!url.searchParams.has('lang')) url.searchParams.set('lang', lang);
  return url.toString();
}

type State = 'waiting' | 'denied' | 'lost';

/**
 * sessionStorage, which keeps the secret across a reload of this tab. Browsers that block
 * third-party storage throw on any access when the page is embedded in another site's page:
 * then the secret lives only as long as the page (a reload in the frame loses it).
 */
const tabStorage = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string) {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // Embedded with third-party storage blocked: memory only.
    }
  },
};
const POLL_MS = 2000;

/**
 * The page a parked participant waits on. Its credential is the admission secret from the URL
 * fragment (never the tenant key): read once, stripped from the address bar, kept for this tab.
 * When the host admits, it continues to the join URL the admission endpoint returns. While
 * waiting it shows the room's name (from the poll) and the guest's own camera and microphone.
 */
export function WaitingRoom({
  roomId,
  participantId,
  lang = null,
  embedOrigins = [],
}: {
  roomId: string | null;
  participantId: string | null;
  lang?: string | null;
  embedOrigins?: string[];
}) {
  const t = useT();
  const [state, setState] = useState<State>('waiting');
  const [roomName, setRoomName] = useState<string | null>(null);
  const bridge = useEmbedBridge(embedOrigins);

  useEffect(() => bridge.post('ready', { page: 'waiting' }), [bridge]);
  useEffect(() => {
    if (state === 'denied') bridge.post('left', { reason: 'refused' });
    else if (state === 'lost') bridge.post('error', { code: 'waitingLinkInvalid' });
  }, [bridge, state]);

  // The secret: read once from the fragment (and stripped from the address bar), else from this tab's storage.
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    if (!roomId || !participantId) return setState('lost');
    const storageKey = `convene.admission.${participantId}`;
    const fromHash = window.location.hash.slice(1);
    if (fromHash) {
      tabStorage.set(storageKey, fromHash);
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    const stored = fromHash || tabStorage.get(storageKey);
    if (!stored) return setState('lost');
    setSecret(stored);
  }, [roomId, participantId]);

  const announced = useRef(false);
  const poll = useCallback(
    async (signal: AbortSignal): Promise<PollOutcome> => {
      if (!roomId || !participantId || !secret) return 'stop';
      const res = await fetch(
        `/api/v1/rooms/${encodeURIComponent(roomId)}/participants/${encodeURIComponent(participantId)}/admission`,
        {
          headers: { authorization: `Bearer ${secret}` },
          cache: 'no-store',
          signal,
        },
      );
      if (res.status === 404) {
        setState('lost');
        return 'stop';
      }
      if (!res.ok) return;
      const body = (await res.json()) as AdmissionResponse;
      if (typeof body.roomName === 'string') setRoomName(body.roomName);
      if (body.status === 'approved' && body.joinUrl) {
        bridge.post('admitted', {});
        window.location.replace(withLang(body.joinUrl, lang));
        return 'stop';
      }
      if (body.status === 'denied') {
        setState('denied');
        return 'stop';
      }
      if (!announced.current) {
        announced.current = true;
        bridge.post('waiting', {});
      }
    },
    [roomId, participantId, secret, lang, bridge],
  );
  // A failed request (a network blip) is only a reason to keep waiting and try again.
  usePolling(secret ? poll : null, POLL_MS);

  const text = state === 'waiting' ? t.waiting : state === 'denied' ? t.errors.denied : t.waiting.lost;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center text-white">
      <BrandMark />
      {roomName && state !== 'lost' && (
        <p
          data-testid="waiting-room-name"
          className="max-w-full text-lg font-medium text-slate-200 [overflow-wrap:break-word]"
        >
          {roomName}
        </p>
      )}
      <div
        role={state === 'waiting' ? 'status' : 'alert'}
        aria-live="polite"
        data-testid={`waiting-${state}`}
        className="max-w-md"
      >
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="mt-3 text-slate-300">{text.body}</p>
      </div>
      {state === 'waiting' && secret && <WaitingPreview />}
    </main>
  );
}
