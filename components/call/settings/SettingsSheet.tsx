'use client';

import { useState } from 'react';
import { useLocalParticipant } from '@livekit/components-react';
import { DeviceSelect } from '@/components/call/settings/DeviceSelect';
import { Track, type LocalAudioTrack, type LocalVideoTrack } from 'livekit-client';
import { useT } from '@/components/call/useT';
import { useBranding } from '@/components/call/HostedShell';
import { setNoiseSuppression } from '@/components/call/settings/noise';
import { BackgroundPicker } from '@/components/call/settings/BackgroundPicker';

/**
 * In-call settings, the body of the Settings panel (PanelDock): camera, microphone and speaker;
 * background (blur, virtual backgrounds); noise suppression — each feature only where the tenant's
 * hosted-UI settings leave it on. This module loads when someone first opens the settings; RNNoise
 * and the background processor load when first turned on.
 */
export default function SettingsPanel({ open }: { open: boolean }) {
  const t = useT();
  const branding = useBranding();
  const { localParticipant } = useLocalParticipant();
  const camera = localParticipant.getTrackPublication(Track.Source.Camera)?.track as LocalVideoTrack | undefined;
  const microphone = localParticipant.getTrackPublication(Track.Source.Microphone)?.track as
    | LocalAudioTrack
    | undefined;
  const [noise, setNoise] = useState(false);
  const [status, setStatus] = useState<string | null>(null);

  const run = async (work: () => Promise<void>) => {
    setStatus(t.settings.applying);
    try {
      await work();
      setStatus(null);
    } catch {
      setStatus(t.settings.failed);
    }
  };

  return (
    <div data-open={open}>
      {(
        [
          ['videoinput', t.settings.camera],
          ['audioinput', t.settings.microphone],
          ['audiooutput', t.settings.speaker],
        ] as const
      ).map(([kind, label]) => (
        <div key={kind} role="group" aria-label={label} className="mb-3" data-testid={`devices-${kind}`}>
          <h3 className="mb-1 font-semibold">{label}</h3>
          <DeviceSelect kind={kind} label={label} />
        </div>
      ))}
      {branding.backgroundsEnabled && camera && (
        <BackgroundPicker camera={camera} images={branding.virtualBackgrounds} run={run} />
      )}
      {branding.noiseSuppressionEnabled && microphone && (
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={noise}
            onChange={(e) => {
              const on = e.target.checked;
              void run(async () => {
                await setNoiseSuppression(microphone, on);
                setNoise(on);
              });
            }}
          />
          {t.settings.noise}
        </label>
      )}
      <p role="status" className="mt-2 min-h-5 text-slate-300">
        {status}
      </p>
    </div>
  );
}
