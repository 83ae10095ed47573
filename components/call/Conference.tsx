'use client';

import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { decodePeerChat } from '@/components/call/peer-chat';
import {
  ChatToggle,
  LayoutContextProvider,
  LockLockedIcon,
  ParticipantPlaceholder,
  RoomAudioRenderer,
  ScreenShareIcon,
  Toast,
  TrackMutedIndicator,
  VideoTrack,
  ConnectionQualityIndicator,
  useChat,
  useConnectionState,
  useCreateLayoutContext,
  useEnsureTrackRef,
  useFocusToggle,
  useIsEncrypted,
  useLocalParticipant,
  useLocalParticipantPermissions,
  useParticipantInfo,
  useParticipantTile,
  usePinnedTracks,
  isTrackReference,
  type TrackReferenceOrPlaceholder,
  type WidgetState,
} from '@livekit/components-react';
import { ConnectionState, Track } from 'livekit-client';
import { CallControls } from '@/components/call/CallControls';
import { useT } from '@/components/call/useT';
import { TileBadges } from '@/components/call/TileBadges';
import { Stage } from '@/components/call/layout/Stage';
import { LayoutMenu } from '@/components/call/layout/LayoutMenu';
import { ShortcutsDialog } from '@/components/call/layout/ShortcutsDialog';
import { StageButtons } from '@/components/call/layout/StageButtons';
import { useStageLayout } from '@/components/call/layout/useStageLayout';
import { useStageFocus } from '@/components/call/layout/useStageFocus';
import { useStageTracks } from '@/components/call/layout/useStageTracks';
import { useSpotlight } from '@/components/call/layout/useSpotlight';
import {
  SpotlightContext,
  useSpotlightContext,
  useSpotlightControl,
} from '@/components/call/layout/useSpotlightControl';
import { useFullscreen } from '@/components/call/layout/useFullscreen';
import { usePictureInPicture } from '@/components/call/layout/usePictureInPicture';
import { useCallShortcuts } from '@/components/call/layout/useCallShortcuts';
import { useCall } from '@/components/call/call-context';
import { useRaiseHand } from '@/components/call/useRaiseHand';
import { Icon } from '@/components/call/icons';
import { ChatText } from '@/components/call/ChatText';

/**
 * The call's stage in the page's language: LiveKit's VideoConference (grid, a focused tile with
 * the others in a carousel, a shared screen focused on arrival) built from its public parts, with
 * our control bar and tiles instead of its English ones, plus layouts (grid, speaker, sidebar;
 * remembered by this browser), the moderators' spotlight for everyone, full screen,
 * picture-in-picture and keyboard shortcuts. Your own shared screen is never on your stage (a
 * screen showing itself repeats without end): a notice says you are sharing, with Stop.
 * `e2eeChat`: LiveKit's peer-to-peer chat (end-to-end encrypted rooms, where our stored chat
 * cannot read messages). `token`: the participant's own, for the spotlight (moderators).
 */
export function Conference({
  e2eeChat,
  controls,
  token,
}: {
  e2eeChat: boolean;
  /** More controls for the bar, before Leave. */
  controls?: React.ReactNode;
  token?: string;
}) {
  const t = useT();
  const layout = useCreateLayoutContext();
  const { info, togglePanel } = useCall();
  const [widget, setWidget] = useState<WidgetState>({ showChat: false, unreadMessages: 0 });
  const allTracks = useStageTracks();
  const ownScreen = allTracks.some((tr) => tr.participant.isLocal && tr.source === Track.Source.ScreenShare);
  const tracks = useMemo(
    () => allTracks.filter((tr) => !(tr.participant.isLocal && tr.source === Track.Source.ScreenShare)),
    [allTracks],
  );
  const pinned = usePinnedTracks(layout)?.[0];
  useAutoFocusScreenShare(tracks, layout);
  const [stageLayout, setStageLayout] = useStageLayout();
  const spotlighted = useSpotlight();
  const spotlight = useSpotlightControl(token, spotlighted);
  const focus = useStageFocus(tracks, stageLayout, pinned, spotlighted);
  const stage = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(useCallback(() => stage.current?.closest<HTMLElement>('.convene-call') ?? null, []));
  const pip = usePictureInPicture(
    useCallback(
      () =>
        stage.current?.querySelector<HTMLVideoElement>('.convene-stage-main video') ??
        stage.current?.querySelector<HTMLVideoElement>(
          '.lk-participant-tile[data-lk-local-participant="false"] video',
        ) ??
        stage.current?.querySelector<HTMLVideoElement>('video') ??
        null,
      [],
    ),
  );
  const [help, setHelp] = useState(false);
  const hand = useRaiseHand();
  const { localParticipant, isMicrophoneEnabled, isCameraEnabled } = useLocalParticipant();
  const canPublish = !!useLocalParticipantPermissions()?.canPublish;
  const serverChat = info.facts.enableChat && !e2eeChat;
  useCallShortcuts({
    microphone: canPublish ? () => void localParticipant.setMicrophoneEnabled(!isMicrophoneEnabled) : undefined,
    camera: canPublish ? () => void localParticipant.setCameraEnabled(!isCameraEnabled) : undefined,
    hand: hand.enabled ? hand.toggle : undefined,
    chat: serverChat
      ? () => togglePanel('chat')
      : e2eeChat
        ? () => document.querySelector<HTMLElement>('.convene-control-bar .lk-chat-toggle')?.click()
        : undefined,
    fullscreen: fullscreen.supported ? fullscreen.toggle : undefined,
    help: () => setHelp(true),
  });
  const spotlightName = focus.reason === 'spotlight' ? focus.focused?.participant : undefined;

  return (
    <div className="lk-video-conference">
      <LayoutContextProvider value={layout} onWidgetChange={setWidget}>
        <SpotlightContext.Provider value={spotlight}>
          <div className="lk-video-conference-inner">
            <Stage
              ref={stage}
              layout={stageLayout}
              focus={focus}
              tracks={tracks}
              Tile={CallTile}
              notice={
                <>
                  {spotlightName && (
                    <p role="status" className="convene-spotlight-notice">
                      {t.stage.spotlighted(spotlightName.name || spotlightName.identity)}
                    </p>
                  )}
                  {ownScreen && (
                    <div role="status" className="convene-sharing-notice" data-testid="sharing-notice">
                      <Icon name="screen" size={18} />
                      <span>{t.tiles.youAreSharing}</span>
                      <button
                        type="button"
                        className="convene-sharing-stop"
                        onClick={() => void localParticipant.setScreenShareEnabled(false)}
                      >
                        {t.controls.stopScreenShare}
                      </button>
                    </div>
                  )}
                </>
              }
            />
            <CallControls
              chat={e2eeChat}
              secondary={
                <>
                  <LayoutMenu layout={stageLayout} onChange={setStageLayout} />
                  <StageButtons fullscreen={fullscreen} pip={pip} />
                </>
              }
            >
              {controls}
            </CallControls>
          </div>
        </SpotlightContext.Provider>
        {e2eeChat && <PeerChat shown={!!widget.showChat} />}
        <ShortcutsDialog open={help} onClose={() => setHelp(false)} hand={hand.enabled} />
      </LayoutContextProvider>
      <RoomAudioRenderer />
      <ConnectionToast />
    </div>
  );
}

/** A screen shared by anyone takes the focus when it arrives (unless something is pinned) and gives it back when it stops. */
function useAutoFocusScreenShare(
  tracks: TrackReferenceOrPlaceholder[],
  layout: ReturnType<typeof useCreateLayoutContext>,
) {
  const autoFocused = useRef<string | null>(null);
  const screens = tracks.filter(isTrackReference).filter((t) => t.publication.source === Track.Source.ScreenShare);
  const key = screens.map((s) => `${s.publication.trackSid}_${s.publication.isSubscribed}`).join();
  const pinned = layout.pin.state?.length ?? 0;
  // Runs when the shared screens change (their key), not on every new array.
  useEffect(() => {
    const subscribed = screens.find((s) => s.publication.isSubscribed);
    if (subscribed && autoFocused.current === null && pinned === 0) {
      layout.pin.dispatch?.({ msg: 'set_pin', trackReference: subscribed });
      autoFocused.current = subscribed.publication.trackSid;
    } else if (autoFocused.current && !screens.some((s) => s.publication.trackSid === autoFocused.current)) {
      layout.pin.dispatch?.({ msg: 'clear_pin' });
      autoFocused.current = null;
    }
  }, [key]);
}

/**
 * A participant's tile: LiveKit's ParticipantTile in our words (its focus button has no name and
 * a shared screen reads "Ada's screen" in English only). A shared screen shows "Ada is sharing
 * their screen" until its first frame is painted (a screen takes seconds to arrive), not an
 * empty box. Memoized: its reference comes from a context (or the prop) that stays the same object
 * while its track does (useStageTracks), so another tile's track event does not re-render it.
 */
export const CallTile = memo(function CallTile({ trackRef }: { trackRef?: TrackReferenceOrPlaceholder }) {
  const t = useT();
  const track = useEnsureTrackRef(trackRef);
  const { elementProps } = useParticipantTile<HTMLDivElement>({ trackRef: track, htmlProps: {} });
  const { name, identity } = useParticipantInfo({ participant: track.participant });
  const shown = name || identity || '';
  const encrypted = useIsEncrypted(track.participant);
  const { mergedProps, inFocus } = useFocusToggle({ trackRef: track, props: {} });
  const screen = track.source === Track.Source.ScreenShare;
  const spotlight = useSpotlightContext();
  const inSpotlight = spotlight.spotlighted === track.participant.identity;
  const sid = isTrackReference(track) ? track.publication.trackSid : '';
  const [painted, setPainted] = useState<string | null>(null);
  const firstFrame = painted === sid && sid !== '';
  return (
    <div style={{ position: 'relative' }} {...elementProps}>
      {isTrackReference(track) && (
        <VideoTrack
          trackRef={track}
          // The first frame on screen: a screen share's placeholder goes.
          onPlaying={() => setPainted(sid)}
          onResize={(e) => {
            if ((e.currentTarget as HTMLVideoElement).videoWidth > 0) setPainted(sid);
          }}
        />
      )}
      <div className="lk-participant-placeholder">
        <ParticipantPlaceholder />
      </div>
      {screen && !firstFrame && (
        <div className="convene-screen-placeholder" data-testid="screen-placeholder">
          <Icon name="screen" size={40} />
          <p>{t.tiles.sharingScreen(shown)}</p>
        </div>
      )}
      {!screen && <TileBadges participant={track.participant} />}
      <div className="lk-participant-metadata">
        <div className="lk-participant-metadata-item">
          {screen ? (
            <>
              <ScreenShareIcon style={{ marginRight: '0.25rem' }} />
              <span className="lk-participant-name">{t.tiles.screen(shown)}</span>
            </>
          ) : (
            <>
              {encrypted && <LockLockedIcon style={{ marginRight: '0.25rem' }} />}
              <TrackMutedIndicator
                trackRef={{ participant: track.participant, source: Track.Source.Microphone }}
                show="muted"
              />
              <span className="lk-participant-name">{shown}</span>
            </>
          )}
        </div>
        {/* Explicit: the focused tile is rendered outside a track loop, so no context supplies it. */}
        <ConnectionQualityIndicator participant={track.participant} className="lk-participant-metadata-item" />
      </div>
      <button
        type="button"
        {...mergedProps}
        aria-label={inFocus ? t.tiles.unfocus(shown) : t.tiles.focus(shown)}
        aria-pressed={inFocus}
      >
        <FocusIcon inFocus={inFocus} />
      </button>
      {spotlight.canSpotlight && !screen && (
        <button
          type="button"
          className="convene-spotlight-button"
          aria-label={inSpotlight ? t.stage.unspotlight(shown) : t.stage.spotlight(shown)}
          aria-pressed={inSpotlight}
          onClick={() => spotlight.spotlight(inSpotlight ? null : track.participant.identity)}
        >
          <SpotlightIcon />
        </button>
      )}
    </div>
  );
});

function SpotlightIcon() {
  // A spotlight's beam on a person.
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true">
      <path
        d="M8 1v2M3.5 3.5l1.4 1.4M12.5 3.5l-1.4 1.4M5 10a3 3 0 1 1 6 0M2.5 15c.8-2 3-3 5.5-3s4.7 1 5.5 3"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
      />
    </svg>
  );
}

function FocusIcon({ inFocus }: { inFocus: boolean }) {
  // Four corners pointing out (focus) or in (back to the grid), as LiveKit draws them.
  const d = inFocus ? 'M6 1v5H1M10 1v5h5M6 15v-5H1M10 15v-5h5' : 'M1 6V1h5M15 6V1h-5M1 10v5h5M15 10v5h-5';
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true">
      <path d={d} stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** LiveKit's connection toast in our words. */
function ConnectionToast() {
  const t = useT();
  const state = useConnectionState();
  const text =
    state === ConnectionState.Reconnecting
      ? t.connection.reconnecting
      : state === ConnectionState.Connecting
        ? t.connection.connecting
        : state === ConnectionState.Disconnected
          ? t.connection.disconnected
          : null;
  return text ? <Toast className="lk-toast-connection-state">{text}</Toast> : null;
}

const PEER_CHAT_OPTIONS = { messageDecoder: decodePeerChat };
/** The latest peer messages shown: a flood of them from one participant does not grow the page without end. */
const PEER_CHAT_SHOWN = 200;

/**
 * LiveKit's peer-to-peer chat (E2EE rooms), in our words: messages travel over the encrypted
 * connection only and are never stored.
 */
function PeerChat({ shown }: { shown: boolean }) {
  const t = useT();
  const { send, chatMessages, isSending } = useChat(PEER_CHAT_OPTIONS);
  const [text, setText] = useState('');
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [chatMessages]);
  return (
    <div className="lk-chat" style={{ display: shown ? 'grid' : 'none' }}>
      <div className="lk-chat-header">
        {t.e2eeChat.title}
        <ChatToggle className="lk-close-button" aria-label={t.e2eeChat.close}>
          <span aria-hidden="true">×</span>
        </ChatToggle>
      </div>
      <ul className="lk-list lk-chat-messages" ref={list}>
        {chatMessages
          .filter((m) => m.message)
          .slice(-PEER_CHAT_SHOWN)
          .map((m) => (
            <li key={m.id} className="lk-chat-entry" data-lk-message-origin={m.from?.isLocal ? 'local' : 'remote'}>
              <span className="lk-meta-data">
                <strong className="lk-participant-name">
                  {m.from?.isLocal ? t.chat.you : m.from?.name || m.from?.identity}
                </strong>
              </span>
              <span className="lk-message-body">
                <ChatText text={m.message} />
              </span>
            </li>
          ))}
      </ul>
      <form
        className="lk-chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          const message = text.trim();
          if (!message || !send) return;
          // What is typed while this one is on its way stays in the field.
          void send(message).then(() => setText((current) => (current === text ? '' : current)));
        }}
      >
        <input
          className="lk-form-control lk-chat-form-input"
          aria-label={t.e2eeChat.placeholder}
          placeholder={t.e2eeChat.placeholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
          // Typing must not reach the call's keyboard shortcuts.
          onKeyDown={(e) => e.stopPropagation()}
        />
        <button type="submit" className="lk-button lk-chat-form-button" disabled={isSending}>
          {t.e2eeChat.send}
        </button>
      </form>
    </div>
  );
}
