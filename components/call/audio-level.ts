/**
 * A microphone track's samples, frame by frame, read through a WebAudio analyser on a clone of
 * the track. A clone, because a muted LiveKit microphone keeps its track with `enabled = false`
 * (it would read as silence) and the original must stay as LiveKit left it; the clone is enabled
 * and goes nowhere but the analyser. Each frame is the last ~43 ms (2048 samples at 48 kHz).
 * Returns the function that stops it all (clone, audio context, timer).
 */
export function watchSamples(
  track: MediaStreamTrack,
  onFrame: (samples: Float32Array) => void,
  everyMs = FRAME_MS,
): () => void {
  const clone = track.clone();
  clone.enabled = true;
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  const source = context.createMediaStreamSource(new MediaStream([clone]));
  source.connect(analyser);
  // A context made without a user gesture may start suspended; reading samples needs it running.
  void context.resume().catch(() => undefined);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    onFrame(samples);
  }, everyMs);
  return () => {
    clearInterval(timer);
    source.disconnect();
    clone.stop();
    void context.close().catch(() => undefined);
  };
}

export const FRAME_MS = 50;

/** Root mean square of the samples: 0 = silence, 1 = full scale. */
export function rms(samples: Float32Array, from = 0, to = samples.length): number {
  let energy = 0;
  for (let i = from; i < to; i++) energy += samples[i] * samples[i];
  return Math.sqrt(energy / Math.max(1, to - from));
}

/** Louder than this counts as sound (about −34 dBFS: a voice at a laptop, not room hiss). */
export const SOUND_RMS = 0.02;

/**
 * The share of a frame (0–1) that holds sound, in blocks of 128 samples (under 3 ms): a click
 * fills a sliver of a frame, a spoken syllable most of it. A level over the whole frame would
 * call a loud 20 ms click as much sound as a syllable.
 */
export function soundingShare(samples: Float32Array, block = 128): number {
  const blocks = Math.floor(samples.length / block);
  let sounding = 0;
  for (let b = 0; b < blocks; b++) if (rms(samples, b * block, (b + 1) * block) > SOUND_RMS) sounding++;
  return blocks ? sounding / blocks : 0;
}

/**
 * Speech, as opposed to clicks, a knock on the desk or room hiss: sound adding up to `minMs`
 * within the last `windowMs`. Feed it each frame's sounding share; it answers whether that
 * makes speech.
 */
export function speechDetector({ frameMs = FRAME_MS, minMs = 300, windowMs = 1000 } = {}) {
  const shares: number[] = [];
  const size = Math.round(windowMs / frameMs);
  return {
    push(share: number): boolean {
      shares.push(share);
      if (shares.length > size) shares.shift();
      return shares.reduce((sum, s) => sum + s, 0) * frameMs >= minMs;
    },
    reset() {
      shares.length = 0;
    },
  };
}
