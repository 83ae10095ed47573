'use client';

import { useEffect, useRef, useState } from 'react';
import type { LocalUserChoices } from '@livekit/components-react';
import { useT } from '@/components/call/useT';
import { type CaptureKind, handOverCapture, useCapture } from '@/components/call/useCapture';
import { takePrejoinChoices } from '@/components/call/prejoin-choices';
import { Icon } from '@/components/call/icons';
import { DeviceMenu } from '@/components/call/DeviceMenu';

type Kind = CaptureKind;

/** What the person chose, and the preview's running captures of what they turned on: the call publishes these as they are. */
export interface JoinChoices extends LocalUserChoices {
  captures: MediaStreamTrack[];
}

/**
 * The pre-join screen: camera preview, microphone and camera on or off, a device for each, and
 * Join. LiveKit's PreJoin does the same through livekit-client, which would put the whole media
 * SDK (about 140 KB compressed) on the first load of /join; this one uses the browser's
 * getUserMedia alone, in LiveKit's markup and classes so it looks the same. On Join, the preview's
 * running captures are handed to the call, which publishes them: a camera is not started twice
 * (a real one takes 0.3–1 s to start, and its light would blink).
 */
export function PreJoinForm({
  name,
  canPublish,
  onSubmit,
  demo = false,
}: {
  name: string;
  canPublish: boolean;
  onSubmit: (choices: JoinChoices) => void;
  /** The console's branding preview: the form as it looks, with no camera or microphone started. */
  demo?: boolean;
}) {
  const t = useT();
  const [audioEnabled, setAudioEnabled] = useState(canPublish);
  const [videoEnabled, setVideoEnabled] = useState(canPublish);
  const [deviceIds, setDeviceIds] = useState<Record<Kind, string>>({ audioinput: '', videoinput: '' });
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const videoAttempt = useRef<Promise<MediaStreamTrack | null> | null>(null);
  const audioAttempt = useRef<Promise<MediaStreamTrack | null> | null>(null);
  const { track: video, failure: videoFailure } = useCapture(
    'videoinput',
    videoEnabled && !demo,
    deviceIds.videoinput,
    videoAttempt,
  );
  const { track: audio, failure: audioFailure } = useCapture(
    'audioinput',
    audioEnabled && !demo,
    deviceIds.audioinput,
    audioAttempt,
  );
  const [joining, setJoining] = useState(false);
  const preview = useRef<HTMLVideoElement>(null);

  // What the guest chose while waiting (after mount: the server render cannot know it).
  useEffect(() => {
    const carried = takePrejoinChoices();
    if (!carried || !canPublish) return;
    setAudioEnabled(carried.audio);
    setVideoEnabled(carried.video);
  }, [canPublish]);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = video ? new MediaStream([video]) : null;
  }, [video]);

  // Device names are readable once a capture was allowed: list them again whenever one starts.
  useEffect(() => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    void navigator.mediaDevices.enumerateDevices().then(setDevices);
  }, [video, audio]);

  const inUse = (kind: Kind) =>
    (kind === 'videoinput' ? video : audio)?.getSettings().deviceId || deviceIds[kind] || 'default';

  const group = (kind: Kind) => {
    const source = kind === 'audioinput' ? 'microphone' : 'camera';
    const enabled = kind === 'audioinput' ? audioEnabled : videoEnabled;
    const toggle = kind === 'audioinput' ? setAudioEnabled : setVideoEnabled;
    return (
      <div className={`lk-button-group ${kind === 'audioinput' ? 'audio' : 'video'}`}>
        {/* Its name is the device ("Microphone", pressed or not), from its text: what shows is the
            icon, crossed out when off, the device and On or Off — the state is in aria-pressed for
            screen readers. No aria-label: a name without the visible "On" fails WCAG 2.5.3. */}
        <button
          type="button"
          className="lk-button convene-prejoin-toggle"
          data-lk-source={source}
          data-lk-enabled={enabled}
          aria-pressed={enabled}
          disabled={!canPublish}
          onClick={() => toggle(!enabled)}
        >
          <Icon name={kind === 'audioinput' ? (enabled ? 'mic' : 'micOff') : enabled ? 'camera' : 'cameraOff'} />
          {kind === 'audioinput' ? t.microphone : t.camera}
          <span aria-hidden="true" className="convene-state-pill">
            {enabled ? t.prejoin.on : t.prejoin.off}
          </span>
        </button>
        <DeviceMenu
          label={kind === 'audioinput' ? t.chooseMicrophone : t.chooseCamera}
          kindName={kind === 'audioinput' ? t.microphone : t.camera}
          devices={devices.filter((d) => d.kind === kind)}
          activeId={inUse(kind)}
          onChoose={(deviceId) => setDeviceIds((ids) => ({ ...ids, [kind]: deviceId }))}
          disabled={!canPublish || demo}
          opens="below"
        />
      </div>
    );
  };

  return (
    <div className="lk-prejoin">
      <div className="lk-video-container convene-preview">
        {video ? (
          <video ref={preview} autoPlay playsInline muted style={{ transform: 'scaleX(-1)' }} />
        ) : (
          // Never a black box: while the camera starts (a real one takes a second or more) and while it is off, say so.
          <div className="convene-preview-note" data-testid="preview-note">
            <Icon name={videoEnabled && !videoFailure ? 'camera' : 'cameraOff'} size={36} />
            <p>
              {demo
                ? t.waitingPreview.preview
                : videoEnabled && !videoFailure
                  ? t.prejoin.startingCamera
                  : t.prejoin.cameraOff}
            </p>
          </div>
        )}
      </div>
      <div className="lk-button-group-container">
        {group('audioinput')}
        {group('videoinput')}
      </div>
      {audioFailure && <DeviceFailureText text={t.deviceFailure.microphone[audioFailure]} />}
      {videoFailure && <DeviceFailureText text={t.deviceFailure.camera[videoFailure]} />}
      <form
        className="lk-username-container"
        onSubmit={async (e) => {
          e.preventDefault();
          if (joining || demo) return;
          setJoining(true);
          // Join pressed while a capture is still starting: it is awaited (2 s at most) and handed to
          // the call, not started a second time beside it (a device opened twice at once can give
          // the second capture silence).
          const settle = (on: boolean, attempt: typeof audioAttempt) => (on ? attempt.current : null);
          const [mic, camera] = await Promise.race([
            Promise.all([settle(audioEnabled, audioAttempt), settle(videoEnabled, videoAttempt)]),
            new Promise<[null, null]>((resolve) => setTimeout(() => resolve([null, null]), 2000)),
          ]);
          onSubmit({
            username: name,
            audioEnabled,
            videoEnabled,
            audioDeviceId: mic?.getSettings().deviceId ?? deviceIds.audioinput,
            videoDeviceId: camera?.getSettings().deviceId ?? deviceIds.videoinput,
            captures: [mic, camera]
              .filter((t): t is MediaStreamTrack => !!t && t.readyState === 'live')
              .map(handOverCapture),
          });
        }}
      >
        <button type="submit" className="lk-button lk-join-button">
          {t.join}
        </button>
      </form>
    </div>
  );
}

function DeviceFailureText({ text }: { text: string }) {
  return (
    <p role="alert" data-testid="device-failure" className="max-w-sm text-center text-sm text-amber-200">
      {text}
    </p>
  );
}
