'use client';

import '@livekit/components-styles';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  LiveKitRoom,
  PreJoin,
  VideoConference,
  useParticipants,
  useRoomContext,
  type LocalUserChoices,
} from '@livekit/components-react';
import { ExternalE2EEKeyProvider, Room, RoomEvent, isE2EESupported, type DisconnectReason } from 'livekit-client';
import { connectFailure, disconnected } from '@/components/call/call-end';
import { readJoinToken, type JoinToken } from '@/lib/domain/join-token';
import type { ErrorKey } from '@/lib/i18n/en';
import { useT } from '@/components/call/useT';
import { BrandMark } from '@/components/call/HostedShell';
import { useEmbedBridge, type EmbedBridge } from '@/components/call/useEmbedBridge';
import { useEmbedCallEvents } from '@/components/call/useEmbedCallEvents';
import { LEFT_REASONS } from '@/lib/embed/protocol';
import { ensureStorage } from '@/components/call/storage-fallback';

ensureStorage();
import { HostPanel } from '@/components/call/HostPanel';
import { useParticipantApi } from '@/components/call/useParticipantApi';
import { useSelf } from '@/components/call/useSelf';
import type { MeResponse } from '@/components/call/participant-api';
import { focusRing } from '@/components/call/focus-ring';
import { PollsPanel, usePolls } from '@/components/call/PollsPanel';
import { QuestionsPanel, useQuestions } from '@/components/call/QuestionsPanel';
import { CaptionsOverlay } from '@/components/call/CaptionsOverlay';
import { PeoplePanel } from '@/components/call/PeoplePanel';
import { ChatPanel, EncryptedChatNote, useChat } from '@/components/call/ChatPanel';

type Stage =
  | { kind: 'prejoin' }
  | { kind: 'checking' }
  | { kind: 'call'; choices: LocalUserChoices }
  | { kind: 'error'; error: ErrorKey; retry: boolean };

const ENTRY_ERRORS: Partial<Record<MeResponse['entry'], ErrorKey>> = {
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
async function entryError(token: string): Promise<ErrorKey | null> {
  try {
    const res = await fetch('/api/v1/me', {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(4000),
    });
    // 401: the token is not ours or no longer valid; 403: the tenant is suspended.
    if (res.status === 401 || res.status === 403) return 'refused';
    if (!res.ok) return null;
    const { entry } = (await res.json()) as MeResponse;
    return ENTRY_ERRORS[entry] ?? null;
  } catch {
    return null;
  }
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
    return <ErrorScreen error={stage.error} onRetry={stage.retry ? () => setStage({ kind: 'prejoin' }) : undefined} />;
  if (stage.kind === 'checking')
    return (
      <Centered>
        <p>{t.connecting}</p>
      </Centered>
    );
  if (stage.kind === 'prejoin') {
    return (
      <main
        className="convene-prejoin flex min-h-dvh flex-col items-center justify-center gap-4 p-4 text-white"
        data-lk-theme="default"
      >
        <BrandMark />
        {info.facts.roomName && <h1 className="text-2xl font-semibold">{info.facts.roomName}</h1>}
        <p data-testid="joining-as" className="text-slate-200">
          {t.joiningAs(info.name)}
        </p>
        {e2eeKey && <Badge>{t.e2eeBadge}</Badge>}
        <LabelledPreJoin
          defaults={{ username: info.name, videoEnabled: info.canPublish, audioEnabled: info.canPublish }}
          onSubmit={(choices) => {
            setStage({ kind: 'checking' });
            void entryError(token!).then((error) =>
              setStage(
                error
                  ? { kind: 'error', error, retry: error === 'locked' || error === 'roomFull' }
                  : { kind: 'call', choices },
              ),
            );
          }}
          joinLabel={t.join}
          camLabel={t.camera}
          micLabel={t.microphone}
          userLabel={t.userLabel}
          persistUserChoices={false}
        />
      </main>
    );
  }
  return (
    <Call
      token={token!}
      serverUrl={serverUrl!}
      info={info}
      e2eeKey={e2eeKey}
      choices={stage.choices}
      bridge={bridge}
      onEnd={(error, retry) => setStage({ kind: 'error', error, retry })}
    />
  );
}

/**
 * LiveKit's PreJoin renders its device-menu buttons without an accessible name (axe:
 * button-name). Name them after render; the component offers no prop for it.
 */
function LabelledPreJoin(props: React.ComponentProps<typeof PreJoin>) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const name = () => {
      for (const [kind, label] of [
        ['audio', t.chooseMicrophone],
        ['video', t.chooseCamera],
      ] as const) {
        ref.current
          ?.querySelectorAll(`.${kind} .lk-button-menu`)
          .forEach((b) => b.getAttribute('aria-label') !== label && b.setAttribute('aria-label', label));
      }
    };
    name();
    const observer = new MutationObserver(name);
    if (ref.current) observer.observe(ref.current, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [t]);
  return (
    <div ref={ref} className="contents">
      <PreJoin {...props} />
    </div>
  );
}

function Call({
  token,
  serverUrl,
  info,
  e2eeKey,
  choices,
  bridge,
  onEnd,
}: {
  token: string;
  serverUrl: string;
  info: JoinToken;
  e2eeKey: string | null;
  choices: LocalUserChoices;
  bridge: EmbedBridge;
  onEnd: (e: ErrorKey, retry: boolean) => void;
}) {
  const t = useT();
  const [room] = useState(() => {
    if (!e2eeKey) return new Room({ adaptiveStream: true, dynacast: true });
    const keyProvider = new ExternalE2EEKeyProvider();
    const worker = new Worker(new URL('livekit-client/e2ee-worker', import.meta.url));
    const r = new Room({ adaptiveStream: true, dynacast: true, encryption: { keyProvider, worker } });
    void keyProvider.setKey(e2eeKey).then(() => r.setE2EEEnabled(true));
    return r;
  });

  useEmbedCallEvents(room, bridge);

  useEffect(() => {
    const onDisconnected = (reason?: DisconnectReason) => {
      const end = disconnected(reason);
      onEnd(end.error, end.retry);
    };
    room.on(RoomEvent.Disconnected, onDisconnected);
    return () => {
      room.off(RoomEvent.Disconnected, onDisconnected);
    };
  }, [room, onEnd]);

  // Stable callback: an inline one would re-trigger LiveKitRoom's connect effect.
  const onError = useCallback(
    (err: Error) => {
      const end = connectFailure(err);
      onEnd(end.error, end.retry);
    },
    [onEnd],
  );

  return (
    <LiveKitRoom
      room={room}
      token={token}
      serverUrl={serverUrl}
      connect
      video={info.canPublish && choices.videoEnabled ? { deviceId: choices.videoDeviceId } : false}
      audio={info.canPublish && choices.audioEnabled ? { deviceId: choices.audioDeviceId } : false}
      onError={onError}
      data-lk-theme="default"
      // Inline: the LiveKit stylesheet is unlayered, so its `.lk-room-container {height: 100%}` beats
      // Tailwind's (layered) h-dvh, and 100% of an auto-height parent collapsed the call to its control bar.
      style={{ height: '100dvh' }}
      className={`convene-call ${info.facts.enableChat ? (info.facts.enableE2EE ? '' : 'convene-server-chat') : 'convene-no-chat'} ${info.canScreenShare ? '' : 'convene-no-screenshare'}`}
    >
      <CallTools token={token} info={info}>
        <BrandMark compact />
        {e2eeKey && <Badge>{t.e2eeBadge}</Badge>}
        {info.facts.enableRecording && <RecordingBadge />}
      </CallTools>
      <VideoConference />
      <CaptionsOverlay />
    </LiveKitRoom>
  );
}

type PanelKey = 'host' | 'people' | 'polls' | 'questions' | 'chat';

/**
 * The buttons above the video (beside the badges) and the panels they open, one at a time: host
 * controls (moderators per GET /api/v1/me), people, polls, Q&A. A panel floats at the left from the
 * sm breakpoint and is a bottom sheet below it; Escape or its close button closes it and
 * returns focus to its button. Closed panels stay mounted (hidden) so they keep their state and
 * live updates, and their buttons can show counts.
 */
function CallTools({ token, info, children }: { token: string; info: JoinToken; children: React.ReactNode }) {
  const t = useT();
  const api = useParticipantApi(token);
  const people = useParticipants().length;
  const self = useSelf(api);
  const polls = usePolls(api);
  const questions = useQuestions(api);
  const [open, setOpen] = useState<PanelKey | null>(null);
  // Chat through the API (stored, history on reload); in E2EE rooms LiveKit's peer-to-peer chat stays.
  const serverChat = info.facts.enableChat && !info.facts.enableE2EE;
  const chat = useChat(api, serverChat, open === 'chat');
  const [waiting, setWaiting] = useState(0);
  const toggles = useRef<Partial<Record<PanelKey, HTMLButtonElement | null>>>({});
  const panels = useRef<Partial<Record<PanelKey, HTMLElement | null>>>({});

  useEffect(() => {
    if (open) panels.current[open]?.focus();
  }, [open]);

  const close = (key: PanelKey) => {
    setOpen(null);
    toggles.current[key]?.focus();
  };

  const items: { key: PanelKey; title: string; label: string; body: React.ReactNode }[] = [
    ...(self?.isModerator
      ? [
          {
            key: 'host' as const,
            title: t.host.title,
            label: t.panels.hostToggle(waiting),
            body: <HostPanel token={token} onWaitingCount={setWaiting} />,
          },
        ]
      : []),
    {
      key: 'people',
      title: t.people.title,
      label: t.panels.peopleToggle(people),
      body: <PeoplePanel self={{ name: info.name, role: info.facts.role }} />,
    },
    {
      key: 'polls',
      title: t.polls.title,
      label: t.panels.pollsToggle(polls.polls?.filter((p) => p.status === 'OPEN').length ?? 0),
      body: <PollsPanel state={polls} api={api} self={self} />,
    },
    {
      key: 'questions',
      title: t.questions.title,
      label: t.panels.questionsToggle(questions.questions?.filter((q) => q.status === 'OPEN').length ?? 0),
      body: <QuestionsPanel state={questions} api={api} self={self} />,
    },
    ...(info.facts.enableChat
      ? [
          {
            key: 'chat' as const,
            title: t.chat.title,
            label: t.chat.toggle(chat.unread),
            body: serverChat ? (
              <ChatPanel chat={chat} selfExternalUserId={self?.externalUserId ?? null} />
            ) : (
              <EncryptedChatNote />
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <div className="pointer-events-none absolute left-2 right-2 top-2 z-30 flex flex-wrap items-center gap-2">
        {children}
        <div role="group" aria-label={t.panels.toolbar} className="pointer-events-auto flex flex-wrap gap-2">
          {items.map(({ key, label }) => (
            <button
              key={key}
              ref={(el) => {
                toggles.current[key] = el;
              }}
              type="button"
              aria-expanded={open === key}
              aria-controls={`convene-panel-${key}`}
              onClick={() => setOpen((cur) => (cur === key ? null : key))}
              className={`rounded px-3 py-1.5 text-sm font-medium text-white shadow ${open === key ? 'bg-sky-700' : 'bg-slate-900/85 hover:bg-slate-800'} focus-visible:ring-offset-1 ${focusRing}`}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {items.map(({ key, title, body }) => (
        <section
          key={key}
          id={`convene-panel-${key}`}
          ref={(el) => {
            panels.current[key] = el;
          }}
          tabIndex={-1}
          aria-label={title}
          hidden={open !== key}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close(key);
            }
          }}
          className={`fixed inset-x-0 bottom-0 z-40 max-h-[70dvh] overflow-y-auto rounded-t-xl bg-slate-900/95 p-4 text-sm text-white shadow-lg sm:absolute sm:inset-x-auto sm:bottom-auto sm:left-2 sm:top-14 sm:max-h-[calc(100dvh-9rem)] sm:w-80 sm:rounded-lg ${focusRing}`}
        >
          <div className="mb-3 flex items-center justify-between gap-2">
            <h2 className="text-base font-semibold">{title}</h2>
            <button
              type="button"
              aria-label={t.panels.close}
              onClick={() => close(key)}
              className={`rounded px-2 py-0.5 text-lg leading-none hover:bg-slate-700 ${focusRing}`}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
          {body}
        </section>
      ))}
    </>
  );
}

function RecordingBadge() {
  const t = useT();
  const room = useRoomContext();
  const [recording, setRecording] = useState(room.isRecording);
  useEffect(() => {
    room.on(RoomEvent.RecordingStatusChanged, setRecording);
    return () => {
      room.off(RoomEvent.RecordingStatusChanged, setRecording);
    };
  }, [room]);
  return recording ? <Badge tone="red">{t.recordingBadge}</Badge> : null;
}

function Badge({ children, tone = 'green' }: { children: React.ReactNode; tone?: 'green' | 'red' }) {
  const colours = tone === 'red' ? 'bg-red-700 text-white' : 'bg-emerald-700 text-white';
  return <span className={`rounded px-2 py-1 text-sm font-medium ${colours}`}>{children}</span>;
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

function ErrorScreen({ error, onRetry }: { error: ErrorKey; onRetry?: () => void }) {
  const t = useT();
  const text = t.errors[error];
  return (
    <Centered>
      <div role="alert" data-testid={`error-${error}`} className="max-w-md">
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="mt-3 text-slate-300">{text.body}</p>
      </div>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="rounded bg-[var(--convene-accent,#1d4ed8)] px-4 py-2 font-medium text-white focus:outline-none focus-visible:ring-4 focus-visible:ring-white"
        >
          {error === 'left' || error === 'duplicate' ? t.rejoin : t.retry}
        </button>
      )}
    </Centered>
  );
}
