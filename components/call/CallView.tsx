'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LiveKitRoom } from '@livekit/components-react';
import { type Room, RoomEvent, type DisconnectReason } from 'livekit-client';
import { connectFailure, disconnected } from '@/components/call/call-end';
import type { JoinToken } from '@/lib/domain/join-token';
import type { ErrorKey } from '@/lib/i18n/en';
import type { EmbedBridge } from '@/components/call/useEmbedBridge';
import { useEmbedCallEvents } from '@/components/call/useEmbedCallEvents';
import { useQualityTelemetry } from '@/components/call/useQualityTelemetry';
import { useParticipantApi } from '@/components/call/useParticipantApi';
import { useSelf } from '@/components/call/useSelf';
import { CallContext, type CallContextValue, type PanelKey, useCall } from '@/components/call/call-context';
import { useCallPanels } from '@/components/call/useCallPanels';
import { TopBar } from '@/components/call/TopBar';
import { PanelDock } from '@/components/call/PanelDock';
import { CaptionsOverlay } from '@/components/call/CaptionsOverlay';
import { Conference } from '@/components/call/Conference';
import { CallExtraControls } from '@/components/call/CallExtraControls';
import { FloatingReactions } from '@/components/call/FloatingReactions';
import { HostNotices } from '@/components/call/HostNotices';
import { DeviceFailureNotice } from '@/components/call/DeviceFailureNotice';
import { MutedSpeechHint } from '@/components/call/MutedSpeechHint';
import { useHandToasts } from '@/components/call/useHandToasts';
import { useMeetingState } from '@/components/call/useMeetingState';
import { FirstSightContext, useFirstSight, useFirstSightSeen } from '@/components/call/useFirstSight';

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
  useQualityTelemetry(room, token, info.facts.roomId);
  const seen = useFirstSight(room);

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
      <FirstSightContext.Provider value={seen}>
        <CallShell token={token} info={info} e2ee={!!e2eeKey} />
        {/* The toaster and what it says are there from the start: a host's word is not missed. */}
        <HostNotices />
        <DeviceFailureNotice />
        {seen && <MutedSpeechHint />}
      </FirstSightContext.Provider>
    </LiveKitRoom>
  );
}

/**
 * The call's frame, as Daily Prebuilt lays it out: a top bar (meeting name, clock, badges, the
 * panel buttons), the stage with its control bar, and one panel at a time docked beside them —
 * the stage shrinks to make room, so no panel covers a tile (on a phone the panel is an opaque
 * sheet between the top bar and the control bar). Closed panels stay mounted (hidden) so they keep
 * their state and live updates, and their buttons can show counts.
 */
function CallShell({ token, info, e2ee }: { token: string; info: JoinToken; e2ee: boolean }) {
  const api = useParticipantApi(token);
  const self = useSelf(api);
  const { meeting, refresh: refreshMeeting } = useMeetingState(api);
  const [panel, setPanel] = useState<PanelKey | null>(null);
  const toggles = useRef<Partial<Record<PanelKey, HTMLElement | null>>>({});
  const open = useRef<PanelKey | null>(null);
  open.current = panel;

  const togglePanel = useCallback((key: PanelKey) => setPanel((cur) => (cur === key ? null : key)), []);
  const closePanel = useCallback(() => {
    const key = open.current;
    setPanel(null);
    if (key) toggles.current[key]?.focus();
  }, []);
  const registerToggle = useCallback((key: PanelKey, el: HTMLElement | null) => {
    if (el) toggles.current[key] = el;
  }, []);
  const value = useMemo<CallContextValue>(
    () => ({ token, info, api, self, meeting, refreshMeeting, panel, togglePanel, closePanel, registerToggle }),
    [token, info, api, self, meeting, refreshMeeting, panel, togglePanel, closePanel, registerToggle],
  );

  return (
    <CallContext.Provider value={value}>
      <CallFrame e2ee={e2ee} />
    </CallContext.Provider>
  );
}

function CallFrame({ e2ee }: { e2ee: boolean }) {
  const { token, info } = useCall();
  const panels = useCallPanels();
  const seen = useFirstSightSeen();
  useHandToasts();
  // The stage, the top bar and the control bar first; what is not in sight yet once the others are
  // (useFirstSight): the docked panels (closed), reactions and captions.
  return (
    <div className="convene-call-frame">
      <TopBar panels={panels} e2ee={e2ee} />
      <div className="convene-call-body">
        <div className="convene-call-main">
          <Conference e2eeChat={info.facts.enableChat && e2ee} controls={<CallExtraControls />} token={token} />
          {seen && <FloatingReactions />}
          {seen && <CaptionsOverlay token={token} />}
        </div>
        {seen && <PanelDock panels={panels} />}
      </div>
    </div>
  );
}
