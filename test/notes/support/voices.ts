/**
 * Two test speakers with voices far apart: espeak-ng says each one's phrase, one in a low male
 * voice (about 70 Hz), the other in a high female one (about 300 Hz). What the speech-to-text stub
 * hears is told apart by its pitch (recognise), so a transcript that puts a phrase under the wrong
 * person — or mixes two people's audio into one — shows in the text the stub answers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const VOICES = {
  low: { phrase: 'seven green apples on the table', espeak: ['-p', '5'] },
  high: { phrase: 'the quick brown fox jumps', espeak: ['-v', 'en+f3', '-p', '95'] },
} as const;
export type Voice = keyof typeof VOICES;
/**
 * Below this fundamental frequency a voiced frame is the low voice's (about 60–80 Hz), above it the
 * high one's (about 180–350 Hz).
 */
const SPLIT_HZ = 125;

/** The voice's phrase as a 16-bit mono WAV, followed by `silenceSeconds` of silence (a fake microphone loops it). */
export function voiceWav(voice: Voice, silenceSeconds = 1.5) {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), `convene-voice-${voice}-`)), 'speech.wav');
  execFileSync('espeak-ng', [...VOICES[voice].espeak, '-w', file, VOICES[voice].phrase]);
  const wav = readFileSync(file);
  const rate = wav.readUInt32LE(24);
  const data = wav.subarray(44);
  const silence = Buffer.alloc(Math.round(rate * silenceSeconds) * 2);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.length + silence.length, 4);
  header.writeUInt32LE(data.length + silence.length, 40);
  writeFileSync(file, Buffer.concat([header, data, silence]));
  return { file, speechSeconds: data.length / 2 / rate };
}

/** Any audio file ffmpeg reads, as 16 kHz mono samples (-1..1); null when it cannot be decoded. */
export function decodeAudio(ffmpeg: string, file: string): Float32Array | null {
  const run = spawnSync(
    ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
    {
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  if (run.status !== 0 || !run.stdout.length) return null;
  const pcm = run.stdout;
  const samples = new Float32Array(Math.floor(pcm.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = pcm.readInt16LE(i * 2) / 32768;
  return samples;
}

/** The fundamental frequency of a frame by autocorrelation (60–400 Hz), or null when it is not clearly voiced. */
function pitchOf(x: Float32Array, start: number, length: number, rate: number): number | null {
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.ceil(rate / 60);
  const r: number[] = [];
  for (let lag = minLag; lag <= maxLag; lag++) {
    let c = 0;
    let e1 = 0;
    let e2 = 0;
    for (let i = 0; i < length - lag; i++) {
      c += x[start + i] * x[start + i + lag];
      e1 += x[start + i] ** 2;
      e2 += x[start + i + lag] ** 2;
    }
    r.push(c / Math.sqrt(e1 * e2 + 1e-12));
  }
  const best = Math.max(...r);
  if (best <= 0.6) return null;
  // A period's multiples correlate almost as well as the period: the shortest lag near the best is
  // the period (else a high voice reads an octave or two low — after a lossy call, often).
  const lag =
    minLag +
    r.findIndex((v, i) => v >= 0.9 * best && (i === 0 || v >= r[i - 1]) && (i === r.length - 1 || v >= r[i + 1]));
  return rate / lag;
}

export interface HeardSegment {
  start: number;
  end: number;
  /** The voices heard in it, the main one first. */
  voices: Voice[];
}

/** 40 ms frames every 20 ms: whether each is loud, and the voice its pitch says (when voiced). */
function voiceFrames(samples: Float32Array, rate: number) {
  const frame = Math.round(rate * 0.04);
  const hop = Math.round(rate * 0.02);
  const frames: { t: number; loud: boolean; voice?: Voice }[] = [];
  for (let s = 0; s + frame < samples.length; s += hop) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[s + i] ** 2;
    const loud = Math.sqrt(energy / frame) > 0.01;
    const f0 = loud ? pitchOf(samples, s, frame, rate) : null;
    frames.push({ t: s / rate, loud, voice: f0 === null ? undefined : f0 < SPLIT_HZ ? 'low' : 'high' });
  }
  return frames;
}

/**
 * Each voice's share of the voiced frames of the whole audio (0–1). One voice alone reads a few
 * frames as the other (a lossy stretch read an octave off); two voices mixed share them.
 */
export function voiceShares(samples: Float32Array, rate = 16_000): Record<Voice, number> {
  const counts = { low: 0, high: 0 };
  for (const f of voiceFrames(samples, rate)) if (f.voice) counts[f.voice]++;
  const voiced = counts.low + counts.high || 1;
  return { low: counts.low / voiced, high: counts.high / voiced };
}

/**
 * Where in the audio someone speaks, and whose voice it is: stretches of sound (pauses under
 * 300 ms joined), each with the voices whose pitch makes up at least 30 % of its voiced frames.
 */
export function recognise(samples: Float32Array, rate = 16_000): HeardSegment[] {
  const frame = Math.round(rate * 0.04);
  const frames = voiceFrames(samples, rate);
  const segments: HeardSegment[] = [];
  let open: { start: number; end: number; counts: Record<Voice, number> } | null = null;
  const close = () => {
    if (!open) return;
    const voiced = open.counts.low + open.counts.high;
    const voices = (['low', 'high'] as Voice[])
      .filter((v) => voiced > 0 && open!.counts[v] / voiced >= 0.3)
      .sort((a, b) => open!.counts[b] - open!.counts[a]);
    if (open.end - open.start >= 0.3 && voices.length) segments.push({ start: open.start, end: open.end, voices });
    open = null;
  };
  for (const f of frames) {
    if (f.loud) {
      if (open && f.t - open.end > 0.3) close();
      open ??= { start: f.t, end: f.t, counts: { low: 0, high: 0 } };
      open.end = f.t + frame / rate;
      if (f.voice) open.counts[f.voice]++;
    }
  }
  close();
  return segments.map((s) => ({ ...s, start: round(s.start), end: round(s.end) }));
}

const round = (n: number) => Math.round(n * 100) / 100;

/** What a transcriber would write for a stretch: its voices' phrases. */
export const phraseOf = (segment: HeardSegment) => segment.voices.map((v) => VOICES[v].phrase).join(' / ');
