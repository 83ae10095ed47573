'use client';

import { useEffect, useRef } from 'react';
import { useLocalParticipant } from '@livekit/components-react';
import { soundingShare, speechDetector, watchSamples } from '@/components/call/audio-level';

/**
 * Calls `onSpeech` when the local participant talks while their microphone is muted (as Zoom and
 * Meet say "you are muted"), at most once per `quietMs`. It listens only while muted, and only to
 * a microphone this call already opened (muting keeps LiveKit's track, disabled): a microphone
 * the person never turned on is never opened for this. Listening stops on unmute.
 */
export function useSpeakingWhileMuted(onSpeech: () => void, quietMs = 10_000) {
  const { microphoneTrack, isMicrophoneEnabled } = useLocalParticipant();
  const track = microphoneTrack?.track?.mediaStreamTrack;
  const listen = !!track && track.readyState === 'live' && !isMicrophoneEnabled;
  const latest = useRef(onSpeech);
  const lastTold = useRef(0);
  useEffect(() => {
    latest.current = onSpeech;
  }, [onSpeech]);
  useEffect(() => {
    if (!listen || !track) return;
    const detector = speechDetector();
    return watchSamples(track, (samples) => {
      if (!detector.push(soundingShare(samples))) return;
      detector.reset();
      if (Date.now() - lastTold.current < quietMs) return;
      lastTold.current = Date.now();
      latest.current();
    });
  }, [listen, track, quietMs]);
}
