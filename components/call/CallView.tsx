'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { LiveKitRoom, useParticipants, useRoomContext } from '@livekit/components-react';
import { type Room, RoomEvent, type DisconnectReason } from 'livekit-client';
import { connectFailure, disconnected } from '@/components/call/call-end';
import type { JoinToken } from '@/lib/domain/join-token';
import type { ErrorKey } from '@/lib/i18n/en';
import { useT } from '@/components/call/useT';
import { BrandMark } from '@/components/call/HostedShell';
import { Badge } from '@/components/call/Badge';
import type { EmbedBridge } from '@/components/call/useEmbedBridge';
import { useEmbedCallEvents } from '@/components/call/useEmbedCallEvents';
import { HostPanel } from '@/components/call/HostPanel';
import { useParticipantApi } from '@/components/call/useParticipantApi';
import { useSelf } from '@/components/call/useSelf';
import { focusRing } from '@/components/call/focus-ring';
import { PollsPanel, usePolls } from '@/components/call/PollsPanel';
import { QuestionsPanel, useQuestions } from '@/components/call/QuestionsPanel';
import { CaptionsOverlay } from '@/components/call/CaptionsOverlay';
import { Conference } from '@/components/call/Conference';
import { PeoplePanel } from '@/components/call/PeoplePanel';
import { CallExtraControls } from '@/components/call/CallExtraControls';
import { HostNotices } from '@/components/call/HostNotices';
import { DeviceFailureNotice } from '@/components/call/DeviceFailureNotice';
import { MutedSpeechHint } from '@/components/call/MutedSpeechHint';
import { KnockSoundToggle } from '@/components/call/KnockSoundToggle';
import { ChatPanel, EncryptedChatNote, useChat } from '@/components/call/ChatPanel';

export { startCall } from '@/components/call/start-call';

/**
 * The call itself: the room (made and connecting by startCall), the stage and the meeting tools.
 * Its own module, loaded by JoinClient only when someone joins, so the pre-join page does not
 * carry it (the /join first-load budget, e2e/join-weight.spec.ts).
 */
export function Call({
  room,
  token,
  serverUrl,
  info,
  e2eeKey,
  bridge,
  onEnd,
}: {
  room: Room;
  token: string;
  serverUrl: string;
  info: JoinToken;
  e2eeKey: string | null;
  bridge: EmbedBridge;
  onEnd: (e: ErrorKey, retry: boolean) => void;
}) {
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
      onError={onError}
      data-lk-theme="default"
      // Inline: the LiveKit stylesheet is unlayered, so its `.lk-room-container {height: 100%}` beats
      // Tailwind's (layered) h-dvh, and 100% of an auto-height parent collapsed the call to its control bar.
      style={{ height: '100dvh' }}
      className={`convene-call ${info.facts.enableChat ? (info.facts.enableE2EE ? '' : 'convene-server-chat') : 'convene-no-chat'} ${info.canScreenShare ? '' : 'convene-no-screenshare'}`}
    >
      <CallTools token={token} info={info}>
        <CallBadges info={info} e2ee={!!e2eeKey} />
      </CallTools>
      <Conference
        e2eeChat={info.facts.enableChat && !!e2eeKey}
        controls={<CallExtraControls token={token} />}
        token={token}
      />
      <HostNotices />
      <DeviceFailureNotice />
      <MutedSpeechHint />
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

  // badge: a count shown as a pill on the toggle (the label still says it for screen readers).
  const items: { key: PanelKey; title: string; label: string; badge?: number; body: React.ReactNode }[] = [
    ...(self?.isModerator
      ? [
          {
            key: 'host' as const,
            title: t.host.title,
            label: t.panels.hostToggle(waiting),
            badge: waiting,
            body: (
              <>
                <HostPanel token={token} onWaitingCount={setWaiting} />
                <div className="mt-3">
                  <KnockSoundToggle />
                </div>
              </>
            ),
          },
        ]
      : []),
    {
      key: 'people',
      title: t.people.title,
      label: t.panels.peopleToggle(people),
      body: <PeoplePanel self={{ name: info.name, role: info.facts.role }} api={api} moderator={!!self?.isModerator} />,
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
      <div className="convene-tools pointer-events-none absolute left-2 right-2 top-2 z-30 flex flex-wrap items-center gap-2 max-sm:flex-nowrap">
        {children}
        <div
          role="group"
          aria-label={t.panels.toolbar}
          // One row on a phone: the tools scroll sideways instead of wrapping over the video.
          className="pointer-events-auto flex flex-wrap gap-2 max-sm:min-w-0 max-sm:flex-nowrap max-sm:overflow-x-auto"
        >
          {items.map(({ key, title, label, badge }) => (
            <button
              key={key}
              ref={(el) => {
                toggles.current[key] = el;
              }}
              type="button"
              aria-expanded={open === key}
              aria-controls={`convene-panel-${key}`}
              onClick={() => setOpen((cur) => (cur === key ? null : key))}
              className={`shrink-0 whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-white shadow ${open === key ? 'bg-sky-700' : 'bg-slate-900/85 hover:bg-slate-800'} focus-visible:ring-offset-1 ${focusRing}`}
            >
              {badge ? (
                // The name is the label ("Host controls (2 waiting)"); what shows is the title and the
                // count as a pill. No aria-label: a name that does not contain the visible text fails
                // WCAG 2.5.3 (label in name).
                <>
                  <span className="sr-only">{label}</span>
                  <span aria-hidden="true">
                    {title}
                    <span
                      data-testid={`${key}-badge`}
                      className="ml-1.5 inline-block min-w-5 rounded-full bg-red-600 px-1.5 text-center text-xs font-bold leading-5"
                    >
                      {badge}
                    </span>
                  </span>
                </>
              ) : (
                label
              )}
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
          className={`convene-panel fixed inset-x-0 bottom-[var(--convene-control-bar-height)] z-40 max-h-[calc(100dvh-var(--convene-control-bar-height)-3.5rem)] overflow-y-auto rounded-t-xl bg-slate-900/95 p-4 text-sm text-white shadow-lg sm:absolute sm:inset-x-auto sm:bottom-auto sm:left-2 sm:top-14 sm:max-h-[calc(100dvh-9rem)] sm:w-80 sm:rounded-lg ${focusRing}`}
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

function CallBadges({ info, e2ee }: { info: JoinToken; e2ee: boolean }) {
  const t = useT();
  return (
    <>
      <BrandMark compact />
      {e2ee && <Badge>{t.e2eeBadge}</Badge>}
      {info.facts.enableRecording && <RecordingBadge />}
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
  // Never squeezed into two lines by the tools beside it on a phone.
  return recording ? (
    <span className="shrink-0 whitespace-nowrap">
      <Badge tone="red">{t.recordingBadge}</Badge>
    </span>
  ) : null;
}
