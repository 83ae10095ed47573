'use client';

import { useEffect, useState } from 'react';
import { rms, watchSamples } from '@/components/call/audio-level';

/**
 * A microphone track's loudness for a meter, 0–1: the RMS scaled so speech fills most of it,
 * falling back gently between syllables so the bar does not flicker.
 */
export function useMicLevel(track: MediaStreamTrack | null): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!track) return;
    let shown = 0;
    const stop = watchSamples(
      track,
      (samples) => {
        shown = Math.max(Math.min(1, rms(samples) * 5), shown * 0.7);
        setLevel(Math.round(shown * 20) / 20);
      },
      100,
    );
    return () => {
      stop();
      setLevel(0);
    };
  }, [track]);
  return level;
}
