'use client';

import { useEffect, useRef, useState } from 'react';
import { focusRing } from '@/components/call/focus-ring';
import { useCapture } from '@/components/call/useCapture';
import { savePrejoinChoices } from '@/components/call/prejoin-choices';
import { useMicLevel } from '@/components/call/useMicLevel';
import { useT } from '@/components/call/useT';
import { Icon, type IconName } from '@/components/call/icons';

/**
 * While waiting, the guest checks themselves: their camera (mirrored, as in a mirror) and a
 * microphone level meter, each with an on/off toggle. The captures stop when turned off and when
 * the page leaves (admitted: the pre-join screen opens its own).
 */
export function WaitingPreview() {
  const t = useT();
  const [videoOn, setVideoOn] = useState(true);
  const [audioOn, setAudioOn] = useState(true);
  const { track: video, failure: videoFailure } = useCapture('videoinput', videoOn);
  const { track: audio, failure: audioFailure } = useCapture('audioinput', audioOn);
  const level = useMicLevel(audio);
  const preview = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = video ? new MediaStream([video]) : null;
  }, [video]);
  // Admitted, the pre-join screen starts as the guest left these.
  useEffect(() => savePrejoinChoices({ audio: audioOn, video: videoOn }), [audioOn, videoOn]);

  // As on the pre-join screen: the icon crossed out when off, the device, and On or Off; named by
  // its text (the device), as WCAG 2.5.3 asks.
  const toggle = (on: boolean, set: (v: boolean) => void, label: string, icon: IconName, offIcon: IconName) => (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => set(!on)}
      className={`flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-white ${on ? '' : 'bg-red-900'} ${focusRing}`}
      style={on ? { backgroundColor: 'var(--convene-accent, #1d4ed8)' } : undefined}
    >
      <Icon name={on ? icon : offIcon} size={18} />
      {label}
      <span aria-hidden="true" className="convene-state-pill">
        {on ? t.prejoin.on : t.prejoin.off}
      </span>
    </button>
  );

  return (
    <section aria-label={t.waitingPreview.preview} className="flex w-full max-w-md flex-col items-center gap-3">
      <p className="text-slate-300">{t.waitingPreview.check}</p>
      <div className="relative aspect-video w-full overflow-hidden rounded-lg bg-black/60">
        {video ? (
          <video
            ref={preview}
            data-testid="waiting-preview"
            aria-label={t.waitingPreview.preview}
            autoPlay
            playsInline
            muted
            className="h-full w-full object-cover"
            style={{ transform: 'scaleX(-1)' }}
          />
        ) : (
          <p className="flex h-full items-center justify-center p-3 text-center text-slate-300">
            {videoFailure ? t.deviceFailure.camera[videoFailure] : t.waitingPreview.cameraOff}
          </p>
        )}
      </div>
      <div className="flex w-full flex-wrap items-center gap-3">
        {toggle(audioOn, setAudioOn, t.microphone, 'mic', 'micOff')}
        {toggle(videoOn, setVideoOn, t.camera, 'camera', 'cameraOff')}
        <div
          role="meter"
          aria-label={t.waitingPreview.micLevel}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(level * 100)}
          data-testid="waiting-mic-level"
          className="h-2 min-w-24 flex-1 overflow-hidden rounded bg-slate-700"
        >
          <div className="h-full bg-emerald-400 transition-[width] duration-100" style={{ width: `${level * 100}%` }} />
        </div>
      </div>
      {audioFailure && (
        <p role="alert" className="text-center text-sm text-amber-200">
          {t.deviceFailure.microphone[audioFailure]}
        </p>
      )}
    </section>
  );
}
