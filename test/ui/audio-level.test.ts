import { describe, expect, it } from 'vitest';
import { SOUND_RMS, rms, soundingShare, speechDetector } from '@/components/call/audio-level';

/** 2048 samples at 48 kHz (one ~43 ms frame): a 200 Hz tone of `amplitude` in [from, to), silence elsewhere. */
function frame(amplitude: number, from = 0, to = 2048) {
  const samples = new Float32Array(2048);
  for (let i = from; i < to; i++) samples[i] = amplitude * Math.sin((2 * Math.PI * 200 * i) / 48_000);
  return samples;
}

describe('what the "you are muted" hint calls speech', () => {
  it('measures level and the share of a frame that sounds', () => {
    expect(rms(frame(0.5))).toBeCloseTo(0.5 / Math.SQRT2, 2);
    expect(soundingShare(frame(0))).toBe(0);
    expect(soundingShare(frame(0.3))).toBe(1);
    // A 20 ms click (960 samples) fills under half a frame; hiss under the threshold fills none of it.
    expect(soundingShare(frame(0.5, 0, 960))).toBeCloseTo(960 / 2048, 1);
    expect(soundingShare(frame(SOUND_RMS))).toBe(0);
  });

  it('calls 300 ms of sound within a second speech', () => {
    const d = speechDetector();
    const answers = Array.from({ length: 6 }, () => d.push(1));
    expect(answers).toEqual([false, false, false, false, false, true]);
  });

  it('counts syllables with gaps between them', () => {
    const d = speechDetector();
    const answers = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1].map((share) => d.push(share));
    expect(answers.at(-1)).toBe(true);
    expect(answers.slice(0, -1)).not.toContain(true);
  });

  it('does not call clicks speech', () => {
    const d = speechDetector();
    // Chromium's fake microphone: a beep every 500 ms, measured at up to ~170 ms of sound a second.
    for (let i = 0; i < 100; i++) expect(d.push(i % 10 === 0 ? 1 : i % 10 === 1 ? 0.7 : 0)).toBe(false);
  });

  it('forgets sound older than its window', () => {
    const d = speechDetector();
    for (let i = 0; i < 5; i++) d.push(1);
    for (let i = 0; i < 20; i++) d.push(0);
    expect(d.push(1)).toBe(false);
    d.reset();
    expect(d.push(1)).toBe(false);
  });
});
