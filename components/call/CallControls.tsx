'use client';

import { useEffect, useRef, useState } from 'react';
import {
  ChatIcon,
  ChatToggle,
  StartAudio,
  TrackToggle,
  useLocalParticipantPermissions,
} from '@livekit/components-react';
import { Track } from 'livekit-client';
import { useT } from '@/components/call/useT';
import { useCall } from '@/components/call/call-context';
import { Icon } from '@/components/call/icons';
import { LeaveButton } from '@/components/call/LeaveButton';
import { RoomDeviceMenu } from '@/components/call/settings/DeviceSelect';
import { ControlLabel as Label } from '@/components/call/layout/ControlLabel';
import { useBarFold } from '@/components/call/layout/useBarFold';
import { useMenuButton } from '@/components/call/layout/useMenuButton';

/**
 * The call's control bar in the page's language: LiveKit's ControlBar has its English words
 * built in, so this one is composed from the same public parts. Each control is an icon over its
 * word; a microphone or camera that is off shows its crossed-out icon on red. `chat` shows
 * LiveKit's peer-to-peer chat toggle (E2EE rooms only); `secondary` (layout, full screen…) and
 * `children` (hand, reactions) go before Leave. The bar is always one row: where its controls do
 * not fit, the words go (icons only), then settings and the secondary controls fold into a "More"
 * menu, then `children` too (useBarFold). Choosing something in More closes it.
 */
export function CallControls({
  chat,
  secondary,
  children,
}: {
  chat: boolean;
  secondary?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const t = useT();
  const { panel, togglePanel, registerToggle } = useCall();
  const { open: more, setOpen: setMore, button: moreButton, onMenuKeyDown, menu } = useMenuButton();
  const permissions = useLocalParticipantPermissions();
  const [sharing, setSharing] = useState(false);
  const canPublish = !!permissions?.canPublish;
  const bar = useRef<HTMLDivElement>(null);
  const fold = useBarFold(bar);
  // Panels on a phone end above the bar, however tall it is. The height is the observer's entry's:
  // offsetHeight there forced a style pass of the call in the frame that first shows it (a trace of
  // the join: 2-5 ms), and the property is set only when it changes (setting it restyles the call).
  useEffect(() => {
    const el = bar.current;
    const call = el?.closest<HTMLElement>('.convene-call');
    if (!el || !call) return;
    const observer = new ResizeObserver(([entry]) => {
      const height = `${Math.round(entry.borderBoxSize[0]?.blockSize ?? el.offsetHeight)}px`;
      if (call.style.getPropertyValue('--convene-control-bar-height') !== height)
        call.style.setProperty('--convene-control-bar-height', height);
    });
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
            <RoomDeviceMenu kind={kind} label={choose} kindName={label} />
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
          <Label>{sharing ? t.controls.stopShort : t.controls.share}</Label>
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
        <Icon name="more" />
        <Label>{t.stage.more}</Label>
      </button>
      {/* Part of the row while it fits (display: contents), else the More menu. A choice in the
          menu closes it (buttons that open a menu of their own keep it open). */}
      <div
        id="convene-more"
        ref={menu}
        className="convene-more"
        data-open={more}
        onKeyDown={onMenuKeyDown}
        onClick={(e) => {
          const pressed = (e.target as Element).closest('button');
          if (pressed && !pressed.hasAttribute('aria-expanded')) setMore(false);
        }}
      >
        <div className="convene-more-secondary">
          <button
            ref={(el) => registerToggle('settings', el)}
            type="button"
            className="lk-button"
            aria-label={t.controls.settings}
            aria-pressed={panel === 'settings'}
            // The settings sheet exists only while open.
            aria-controls={panel === 'settings' ? 'convene-panel-settings' : undefined}
            onClick={() => togglePanel('settings')}
          >
            <Icon name="gear" />
            <Label>{t.controls.settings}</Label>
          </button>
          {secondary}
        </div>
        <div className="convene-more-extra">{children}</div>
      </div>
      <LeaveButton label={<Label>{t.controls.leave}</Label>} />
      <StartAudio label={t.controls.startAudio} />
    </div>
  );
}
