'use client';

import { useEffect, useRef, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { RoomEvent } from 'livekit-client';
import { useT } from '@/components/call/useT';
import { useCall } from '@/components/call/call-context';
import type { CallPanel } from '@/components/call/useCallPanels';
import { BrandMark } from '@/components/call/HostedShell';
import { Icon } from '@/components/call/icons';
import { focusRing } from '@/components/call/focus-ring';
import { useMeetingClock } from '@/components/call/useMeetingClock';

/**
 * The call's top bar: the tenant's mark, the meeting's name, how long it has run, what is true of
 * it (encrypted, recording) and the panel buttons — each an icon and its word (the word only for
 * screen readers on a phone) with a count where one matters: people in the call, guests waiting,
 * unread messages, open polls and questions.
 */
export function TopBar({ panels, e2ee }: { panels: CallPanel[]; e2ee: boolean }) {
  const t = useT();
  const { info, panel, togglePanel, registerToggle } = useCall();
  const elapsed = useMeetingClock();
  const name = info.facts.roomName || t.top.meeting;
  const bar = useRef<HTMLDivElement>(null);
  // A phone's panel sheet starts below the bar, however tall it is.
  useEffect(() => {
    const el = bar.current;
    const call = el?.closest<HTMLElement>('.convene-call');
    if (!el || !call) return;
    const observer = new ResizeObserver(() =>
      call.style.setProperty('--convene-top-bar-height', `${el.getBoundingClientRect().bottom}px`),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={bar} className="convene-top-bar convene-tools" data-testid="top-bar">
      <div className="convene-meeting-info">
        <span className="max-sm:hidden">
          <BrandMark compact />
        </span>
        <div className="min-w-0">
          <h1 className="convene-meeting-name" title={name} data-testid="meeting-name">
            {name}
          </h1>
          <p className="convene-meeting-meta">
            <Icon name="clock" size={14} />
            <time data-testid="meeting-timer" aria-label={t.top.elapsed(elapsed)}>
              {elapsed}
            </time>
            {e2ee && (
              <span className="convene-chip bg-emerald-800" title={t.e2eeBadge}>
                <Icon name="lock" size={14} />
                <span className="max-sm:sr-only">{t.e2eeBadge}</span>
              </span>
            )}
            {info.facts.enableRecording && <RecordingChip />}
          </p>
        </div>
      </div>
      <div role="group" aria-label={t.panels.toolbar} className="convene-panel-tools">
        {panels.map(({ key, word, label, icon, count, urgent }) => (
          <button
            key={key}
            ref={(el) => registerToggle(key, el)}
            type="button"
            aria-expanded={panel === key}
            aria-controls={`convene-panel-${key}`}
            onClick={() => togglePanel(key)}
            className={`convene-tool ${panel === key ? 'bg-sky-700' : 'bg-slate-800 hover:bg-slate-700'} ${focusRing}`}
          >
            {/* The name says what the count means ("Host controls (2 waiting)"); what shows is the
                icon, the word and the count as a pill. No aria-label: a name that does not contain
                the visible text fails WCAG 2.5.3 (label in name). */}
            <span className="sr-only">{label}</span>
            <span aria-hidden="true" className="flex items-center gap-1.5">
              <Icon name={icon} />
              <span className="convene-tool-word">{word}</span>
              {count !== undefined && (
                <span
                  data-testid={key === 'people' ? 'participant-count' : `${key}-badge`}
                  className={`convene-pill ${urgent ? 'bg-red-600' : 'bg-slate-600'}`}
                >
                  {count}
                </span>
              )}
            </span>
          </button>
        ))}
      </div>
    </div>
  );
}

/** A red dot and "Recording" while the media layer records the room (everyone sees it). */
function RecordingChip() {
  const t = useT();
  const room = useRoomContext();
  const [recording, setRecording] = useState(room.isRecording);
  useEffect(() => {
    setRecording(room.isRecording);
    room.on(RoomEvent.RecordingStatusChanged, setRecording);
    return () => {
      room.off(RoomEvent.RecordingStatusChanged, setRecording);
    };
  }, [room]);
  return recording ? (
    <span className="convene-chip bg-red-700" data-testid="recording-badge">
      <span aria-hidden="true" className="convene-rec-dot" />
      {t.recordingBadge}
    </span>
  ) : null;
}
