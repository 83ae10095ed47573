'use client';

import '@livekit/components-styles';
import { startTransition, useEffect, useMemo, useState } from 'react';
import type { Room } from 'livekit-client';
import { type JoinChoices, PreJoinForm } from '@/components/call/PreJoinForm';
import { PrecallCheck } from '@/components/call/precall/PrecallCheck';
import { readJoinToken, type JoinToken } from '@/lib/domain/join-token';
import type { ErrorKey } from '@/lib/i18n/en';
import { useT } from '@/components/call/useT';
import { BrandMark } from '@/components/call/HostedShell';
import { useEmbedBridge } from '@/components/call/useEmbedBridge';
import { PreJoinLayout } from '@/components/call/PreJoinLayout';
import { LEFT_REASONS } from '@/lib/embed/protocol';
import { ensureStorage } from '@/components/call/storage-fallback';
import { MeetingRating } from '@/components/call/MeetingRating';

import type { MeResponse } from '@/components/call/participant-api';

ensureStorage();

// The call (room, stage, panels) is not part of the pre-join page's first load: it is fetched
// while the person looks at their preview (1.5 s after the pre-join screen shows, unless the
// browser asks to save data), as soon as they head for Join (pointer or focus on the form), and at
// the latest with the press, beside the entry check — so the press does not wait for its download
// and compilation (half a second of a join on a busy machine, by `npm run bench`). It is rendered
// from the loaded module, not through next/dynamic: a lazy component suspends once, and React
// holds a Suspense fallback at least 300 ms before revealing what replaces it.
type CallModule = typeof import('@/components/call/CallView');
let callModule: Promise<CallModule> | undefined;
const loadCall = () =>
  (callModule ??= import('@/components/call/CallView').catch((err: unknown) => {
    callModule = undefined; // a failed download is tried again at the next press
    throw err;
  }));
const prefetchCall = () => void loadCall().catch(() => undefined);

type Stage =
  | { kind: 'prejoin' }
  | { kind: 'checking' }
  | { kind: 'call'; choices: JoinChoices; Call: CallModule['Call']; room: Room }
  | { kind: 'error'; error: ErrorKey; retry: boolean; afterCall?: boolean };

const ENTRY_ERRORS: Partial<Record<string, ErrorKey>> = {
  locked: 'locked',
  full: 'roomFull',
  ended: 'ended',
  removed: 'removed',
  denied: 'denied',
};

/**
 * Asks our API (GET /api/v1/me with the participant token) whether this person can go in now, so
 * a locked or full room, a removal or an ended meeting reads as such instead of a media error.
 * Our API being unreachable does not block: the media layer decides then.
 */
interface ErrorBody {
  error?: { details?: { field?: string; message: string }[] };
}

async function entryError(token: string): Promise<ErrorKey | null> {
  try {
    const res = await fetch('/api/v1/me', {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(4000),
    });
    // 401: the token is not ours or no longer valid; 403: removed, refused, or the tenant is suspended.
    if (res.status === 403) {
      const detail = ((await res.json().catch(() => null)) as ErrorBody | null)?.error?.details?.[0];
      return (detail?.field === 'entry' && ENTRY_ERRORS[detail.message]) || 'refused';
    }
    if (res.status === 401) return 'refused';
    if (!res.ok) return null;
    const { entry } = (await res.json()) as MeResponse;
    return ENTRY_ERRORS[entry] ?? null;
  } catch {
    return null;
  }
}

/** Ends the preview captures handed to the call (the camera light goes off). */
const stopCaptures = (choices: JoinChoices) => choices.captures.forEach((c) => c.stop());

/**
 * Whether this browser can encrypt media end to end (encoded transforms), as livekit-client's
 * isE2EESupported decides it — asked here without loading livekit-client before the call.
 */
function isE2EESupported(): boolean {
  return (
    typeof window.RTCRtpScriptTransform !== 'undefined' ||
    (typeof window.RTCRtpSender !== 'undefined' && 'createEncodedStreams' in window.RTCRtpSender.prototype)
  );
}

/** The E2EE key lives in the URL fragment: read once, then removed from the address bar. It never leaves the browser. */
function takeKeyFromFragment(): string | null {
  const raw = window.location.hash.slice(1);
  if (!raw) return null;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** embedOrigins: the tenant's frameAncestors, the only parent origins the embedding bridge talks to. */
export function JoinClient({
  token,
  serverUrl,
  embedOrigins = [],
}: {
  token: string | null;
  serverUrl: string | null;
  embedOrigins?: string[];
}) {
  const t = useT();
  const bridge = useEmbedBridge(embedOrigins);
  const info = useMemo<JoinToken | null>(() => (token ? readJoinToken(token) : null), [token]);
  const [e2eeKey, setE2eeKey] = useState<string | null | undefined>(undefined);
  const [stage, setStage] = useState<Stage>({ kind: 'prejoin' });

  useEffect(() => setE2eeKey(takeKeyFromFragment()), []);
  useEffect(() => {
    if (stage.kind !== 'prejoin') return;
    if ((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData) return;
    const timer = setTimeout(prefetchCall, 1500);
    return () => clearTimeout(timer);
  }, [stage.kind]);

  const blocking: ErrorKey | null = useMemo(() => {
    if (!token || !serverUrl) return 'missingToken';
    if (!info) return 'invalidToken';
    if (info.expiresAt && info.expiresAt.getTime() <= Date.now()) return 'expiredToken';
    if (e2eeKey === undefined) return null;
    if (info.facts.enableE2EE && !e2eeKey) return 'e2eeKeyMissing';
    if (info.facts.enableE2EE && !isE2EESupported()) return 'e2eeUnsupported';
    return null;
  }, [token, serverUrl, info, e2eeKey]);

  const shownError = blocking ?? (stage.kind === 'error' ? stage.error : null);
  useEffect(() => bridge.post('ready', { page: 'join' }), [bridge]);
  useEffect(() => {
    if (!shownError) return;
    const reason = LEFT_REASONS[shownError];
    if (reason) bridge.post('left', { reason });
    else bridge.post('error', { code: shownError });
  }, [bridge, shownError]);

  if (blocking) return <ErrorScreen error={blocking} />;
  if (!info || e2eeKey === undefined)
    return (
      <Centered>
        <p>{t.connecting}</p>
      </Centered>
    );
  if (stage.kind === 'error')
    return (
      <ErrorScreen
        error={stage.error}
        onRetry={stage.retry ? () => setStage({ kind: 'prejoin' }) : undefined}
        meetingName={info.facts.roomName}
        ratingToken={stage.afterCall ? token : null}
      />
    );
  if (stage.kind === 'checking')
    return (
      <Centered>
        <p>{t.connecting}</p>
      </Centered>
    );
  if (stage.kind === 'prejoin') {
    return (
      <PreJoinLayout roomName={info.facts.roomName} name={info.name} e2ee={!!e2eeKey}>
        <div className="contents" onPointerEnter={prefetchCall} onFocus={prefetchCall}>
          <PreJoinForm
            name={info.name}
            canPublish={info.canPublish}
            onSubmit={(choices) => {
              setStage({ kind: 'checking' });
              void Promise.all([entryError(token!), loadCall().catch(() => null)]).then(([error, loaded]) => {
                if (error || !loaded) {
                  stopCaptures(choices);
                  setStage(
                    error
                      ? { kind: 'error', error, retry: error === 'locked' || error === 'roomFull' }
                      : { kind: 'error', error: 'unreachable', retry: true },
                  );
                  return;
                }
                const { room, firstExchanges } = loaded.startCall({
                  token: token!,
                  serverUrl: serverUrl!,
                  e2eeKey,
                  choices,
                  canPublish: info.canPublish,
                });
                // Rendered once the join's first exchanges are done (start-call.ts says why), as a
                // transition: React renders it in slices, so the page still answers the peer
                // connection's events (they share one thread).
                void firstExchanges.then(() =>
                  startTransition(() => setStage({ kind: 'call', choices, Call: loaded.Call, room })),
                );
              });
            }}
          />
        </div>
        <PrecallCheck token={token!} serverUrl={serverUrl!} />
      </PreJoinLayout>
    );
  }
  const { Call } = stage;
  return (
    <Call
      room={stage.room}
      token={token!}
      serverUrl={serverUrl!}
      info={info}
      e2eeKey={e2eeKey}
      bridge={bridge}
      onEnd={(error, retry) => {
        stopCaptures(stage.choices); // livekit-client stops what it published; not what it had yet to
        setStage({ kind: 'error', error, retry, afterCall: true });
      }}
    />
  );
}

function Centered({ children }: { children: React.ReactNode }) {
  // The ground (the tenant's branding) is the page's shell, the same under the pre-join, the call and the waiting page: no flash between them.
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center text-white">
      <BrandMark />
      {children}
    </main>
  );
}

/** Screens that end a meeting someone was in: they name the meeting and ask how it was. */
const CALL_ENDS: ReadonlySet<ErrorKey> = new Set(['ended', 'removed', 'left', 'networkLost', 'duplicate']);

/**
 * Why there is no call (or no longer): the reason in words on the tenant's ground and mark, and
 * what can be done — rejoin or try again where that makes sense, else back to the page that
 * opened the meeting. After a meeting: its name and a 1–5 rating (MeetingRating).
 */
function ErrorScreen({
  error,
  onRetry,
  meetingName = null,
  ratingToken = null,
}: {
  error: ErrorKey;
  onRetry?: () => void;
  meetingName?: string | null;
  ratingToken?: string | null;
}) {
  const t = useT();
  const text = t.errors[error];
  const ended = CALL_ENDS.has(error);
  // A way back where rejoining is not offered: the page that opened this one (not inside a frame,
  // where the embedding page decides what comes next).
  const [canGoBack] = useState(
    () => typeof window !== 'undefined' && window.history.length > 1 && window.top === window,
  );
  return (
    <Centered>
      <div role="alert" data-testid={`error-${error}`} className="max-w-md">
        {ended && meetingName && (
          <p className="mb-2 text-slate-300" data-testid="ended-meeting-name">
            {t.end.meeting(meetingName)}
          </p>
        )}
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="mt-3 text-slate-300">{text.body}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        {onRetry && (
          <button
            type="button"
            onClick={onRetry}
            className="rounded bg-[var(--convene-accent,#1d4ed8)] px-4 py-2 font-medium text-white focus:outline-none focus-visible:ring-4 focus-visible:ring-white"
          >
            {error === 'left' || error === 'duplicate' ? t.rejoin : t.retry}
          </button>
        )}
        {!onRetry && canGoBack && (
          <button
            type="button"
            onClick={() => window.history.back()}
            className="rounded bg-slate-700 px-4 py-2 font-medium text-white focus:outline-none focus-visible:ring-4 focus-visible:ring-white"
          >
            {t.end.back}
          </button>
        )}
      </div>
      {ended && ratingToken && <MeetingRating token={ratingToken} />}
    </Centered>
  );
}
