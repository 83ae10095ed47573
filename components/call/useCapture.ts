'use client';

import { useEffect, useState } from 'react';
import { type DeviceFailure, deviceFailure } from '@/components/call/device-failure';

export type CaptureKind = 'audioinput' | 'videoinput';

/** What the call captures a camera at (livekit-client's default, 720p), so a preview can be handed to it as is. */
export const CAMERA_CONSTRAINTS = { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } };

/** Captures handed to the call: their hook no longer stops them; the call does. */
const handedOver = new WeakSet<MediaStreamTrack>();

/** Hands a capture to the call (see useCapture): it keeps running when the preview goes. */
export function handOverCapture(track: MediaStreamTrack) {
  handedOver.add(track);
  return track;
}

/**
 * The browser's capture of one kind while enabled (the default device, or `deviceId`), or why it
 * could not start; stopped when turned off, changed or left, unless handed over to the call: the
 * previews of the pre-join form and the waiting page.
 */
export function useCapture(
  kind: CaptureKind,
  enabled: boolean,
  deviceId = '',
  /** Filled with the capture in progress (its track, or null): a form can wait for one still starting. */
  attempt?: { current: Promise<MediaStreamTrack | null> | null },
): { track: MediaStreamTrack | null; failure: DeviceFailure | null } {
  const [track, setTrack] = useState<MediaStreamTrack | null>(null);
  const [failure, setFailure] = useState<DeviceFailure | null>(null);
  useEffect(() => {
    if (attempt) attempt.current = null;
    setFailure(null);
    if (!enabled || !navigator.mediaDevices?.getUserMedia) return;
    let current: MediaStreamTrack | null = null;
    let gone = false;
    const device = deviceId ? { deviceId: { exact: deviceId } } : {};
    const started = navigator.mediaDevices
      .getUserMedia(
        kind === 'videoinput' ? { video: { ...CAMERA_CONSTRAINTS, ...device } } : { audio: deviceId ? device : true },
      )
      .then((stream) => {
        [current] = kind === 'videoinput' ? stream.getVideoTracks() : stream.getAudioTracks();
        if (gone) current?.stop();
        else setTrack(current ?? null);
        return gone ? null : (current ?? null);
      })
      // No permission, no device, or one in use: the preview stays empty and says why.
      .catch((err: unknown) => {
        setTrack(null);
        if (!gone) setFailure(deviceFailure(err));
        return null;
      });
    if (attempt) attempt.current = started;
    return () => {
      gone = true;
      if (current && !handedOver.has(current)) current.stop();
      setTrack(null);
    };
  }, [kind, enabled, deviceId, attempt]);
  return { track, failure };
}
