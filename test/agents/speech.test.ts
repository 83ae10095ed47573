/**
 * The captions worker's speech segmenter on synthetic audio: tone bursts in background noise are
 * cut at their pauses (with the pre-roll and a little of the pause), clicks are dropped, a long
 * monologue is cut at the maximum length, and segments become 16 kHz WAV files.
 */
import { describe, expect, it } from 'vitest';
import { createSpeechSegmenter, toWav, type SpeechSegment } from '@/agents/captions/speech';

const RATE = 48_000;

/** ms of audio: a 220 Hz tone at `amplitude` over faint noise (a fixed seed: the same every run). */
function audio(ms: number, amplitude: number, seed = { v: 1 }) {
  const out = new Int16Array((RATE * ms) / 1000);
  for (let i = 0; i < out.length; i++) {
    seed.v = (seed.v * 16807) % 2147483647;
    const noise = ((seed.v / 2147483647) * 2 - 1) * 60;
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 220 * i) / RATE) + noise);
  }
  return out;
}

/** Feeds the parts in 10 ms frames, as rtc-node's AudioStream delivers them. */
function segmentsOf(parts: Int16Array[], opts: { maxSegmentMs?: number } = {}) {
  const segmenter = createSpeechSegmenter({ sampleRate: RATE, ...opts });
  const out: SpeechSegment[] = [];
  for (const part of parts)
    for (let i = 0; i < part.length; i += 480) out.push(...segmenter.push(part.subarray(i, i + 480)));
  const last = segmenter.flush();
  if (last) out.push(last);
  return out.map((s) => ({ startMs: s.startMs, endMs: s.endMs, samples: s.samples.length }));
}

describe('speech segmenter', () => {
  it('cuts speech at pauses, keeps 200 ms before it and drops clicks', () => {
    const segments = segmentsOf([
      audio(1000, 0),
      audio(1200, 8000), // speech
      audio(1000, 0),
      audio(50, 8000), // a click: too short
      audio(1000, 0),
      audio(800, 8000), // speech, then the stream ends
    ]);
    expect(segments).toHaveLength(2);
    // From 200 ms before the speech to 200 ms into the 600 ms pause that ended it.
    expect(segments[0]).toMatchObject({ startMs: 800, endMs: 2400 });
    expect(segments[0].samples).toBe(((segments[0].endMs - segments[0].startMs) * RATE) / 1000);
    expect(segments[1]).toMatchObject({ startMs: 4250 - 200, endMs: 4250 + 800 });
  });

  it('cuts a monologue at the maximum length', () => {
    const segments = segmentsOf([audio(500, 0), audio(3500, 8000), audio(1000, 0)], { maxSegmentMs: 1000 });
    expect(segments.map((s) => s.endMs - s.startMs)).toEqual([1000, 1000, 1000, expect.any(Number)]);
  });

  it('writes 16 kHz mono 16-bit WAV', () => {
    const samples = audio(300, 8000);
    const wav = Buffer.from(toWav({ startMs: 0, endMs: 300, samples, sampleRate: RATE }));
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1, 1, 16_000, 16,
    ]);
    expect(wav.readUInt32LE(40)).toBe(4800 * 2);
    expect(wav.length).toBe(44 + 4800 * 2);
  });
});
