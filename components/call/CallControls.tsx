'use client';

import { useEffect, useRef, useState } from 'react';
import {
  ChatIcon,
  ChatToggle,
  DisconnectButton,
  GearIcon,
  LeaveIcon,
  MediaDeviceMenu,
  StartAudio,
  TrackToggle,
  useLocalParticipantPermissions,
} from '@livekit/components-react';
import { Track } from 'livekit-client';
import { useT } from '@/components/call/useT';
import { ControlLabel as Label } from '@/components/call/layout/ControlLabel';
import { useBarFold } from '@/components/call/layout/useBarFold';
import { useMenuButton } from '@/components/call/layout/useMenuButton';

/**
 * The call's control bar in the page's language: LiveKit's ControlBar has its English words
 * built in, so this one is composed from the same public parts (and looks the same).
 * `chat` shows LiveKit's peer-to-peer chat toggle (E2EE rooms only); `onSettings` the settings
 * button; `secondary` (layout, full screen…) and `children` more controls before Leave.
 * The bar is always one row (icons only up to 760 px): where its controls do not fit, settings and
 * the secondary controls fold into a "More" menu, then `children` too (useBarFold).
 */
export function CallControls({
  chat,
  onSettings,
  settingsOpen = false,
  secondary,
  children,
}: {
  chat: boolean;
  onSettings?: () => void;
  settingsOpen?: boolean;
  secondary?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const t = useT();
  const { open: more, setOpen: setMore, button: moreButton, onMenuKeyDown } = useMenuButton();
  const permissions = useLocalParticipantPermissions();
  const [sharing, setSharing] = useState(false);
  const canPublish = !!permissions?.canPublish;
  const bar = useRef<HTMLDivElement>(null);
  const fold = useBarFold(bar);
  // Panels on a phone end above the bar, however tall it is (it wraps when its controls do not fit one row).
  useEffect(() => {
    const el = bar.current;
    const call = el?.closest<HTMLElement>('.convene-call');
    if (!el || !call) return;
    const observer = new ResizeObserver(() =>
      call.style.setProperty('--convene-control-bar-height', `${el.offsetHeight}px`),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={bar}
      className="lk-control-bar convene-control-bar"
      role="toolbar"
      aria-label={t.controls.bar}
      data-fold={fold}
    >
      {canPublish &&
        (
          [
            [Track.Source.Microphone, 'audioinput', t.microphone, t.chooseMicrophone],
            [Track.Source.Camera, 'videoinput', t.camera, t.chooseCamera],
          ] as const
        ).map(([source, kind, label, choose]) => (
          <div key={source} className="lk-button-group">
            <TrackToggle source={source} showIcon aria-label={label}>
              <Label>{label}</Label>
            </TrackToggle>
            <div className="lk-button-group-menu">
              <MediaDeviceMenu kind={kind} aria-label={choose} />
            </div>
          </div>
        ))}
      {canPublish && !!navigator.mediaDevices?.getDisplayMedia && (
        <TrackToggle
          source={Track.Source.ScreenShare}
          captureOptions={{ audio: true, selfBrowserSurface: 'include' }}
          showIcon
          onChange={setSharing}
          aria-label={sharing ? t.controls.stopScreenShare : t.controls.shareScreen}
        >
          <Label>{sharing ? t.controls.stopScreenShare : t.controls.shareScreen}</Label>
        </TrackToggle>
      )}
      {chat && !!permissions?.canPublishData && (
        <ChatToggle aria-label={t.controls.chat}>
          <ChatIcon />
          <Label>{t.controls.chat}</Label>
        </ChatToggle>
      )}
      <button
        ref={moreButton}
        type="button"
        className="lk-button convene-more-toggle"
        aria-label={t.stage.more}
        aria-expanded={more}
        aria-controls="convene-more"
        onClick={() => setMore((m) => !m)}
      >
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
          <circle cx="3" cy="8" r="1.5" fill="currentColor" />
          <circle cx="8" cy="8" r="1.5" fill="currentColor" />
          <circle cx="13" cy="8" r="1.5" fill="currentColor" />
        </svg>
      </button>
      {/* Part of the row while it fits (display: contents), else the More menu. */}
      <div id="convene-more" className="convene-more" data-open={more} onKeyDown={onMenuKeyDown}>
        <div className="convene-more-secondary">
          {onSettings && (
            <button
              type="button"
              className="lk-button"
              aria-label={t.controls.settings}
              aria-pressed={settingsOpen}
              onClick={onSettings}
            >
              <GearIcon />
              <Label>{t.controls.settings}</Label>
            </button>
          )}
          {secondary}
        </div>
        <div className="convene-more-extra">{children}</div>
      </div>
      <DisconnectButton aria-label={t.controls.leave}>
        <LeaveIcon />
        <Label>{t.controls.leave}</Label>
      </DisconnectButton>
      <StartAudio label={t.controls.startAudio} />
    </div>
  );
}
