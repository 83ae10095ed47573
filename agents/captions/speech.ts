/**
 * Speech segments out of a stream of 16-bit mono PCM, by energy: a frame is voiced when its level
 * is well above the noise floor (tracked as the stream goes) and above an absolute minimum. A
 * segment opens on a voiced frame (with a little audio before it, so the first syllable is whole)
 * and closes after a pause, or at a maximum length so captions keep flowing in long monologues.
 *
 * Why not Silero: `@livekit/agents-plugin-silero` needs the `@livekit/agents` framework and
 * rtc-node 0.13 (we run 1.1), and its onnxruntime-node runs an install script that downloads
 * binaries — not allowed here. Energy is enough to cut speech from silence for a transcriber,
 * which itself ignores what is not speech.
 */
export interface SpeechSegment {
  /** Milliseconds from the start of the stream. */
  startMs: number;
  endMs: number;
  samples: Int16Array;
  sampleRate: number;
}

interface SegmenterOptions {
  sampleRate: number;
  /** A pause this long ends a segment. */
  pauseMs?: number;
  /** Audio kept from before the first voiced frame. */
  preRollMs?: number;
  /** Segments with less voiced audio than this are dropped (clicks, coughs). */
  minVoicedMs?: number;
  maxSegmentMs?: number;
  /** Frames quieter than this (dBFS) are never speech. */
  minLevelDb?: number;
  /** How far above the noise floor (dB) a frame must be to count as speech. */
  marginDb?: number;
}

const FRAME_MS = 10;

export function createSpeechSegmenter(opts: SegmenterOptions) {
  const {
    sampleRate,
    pauseMs = 600,
    preRollMs = 200,
    minVoicedMs = 250,
    maxSegmentMs = 15_000,
    minLevelDb = -50,
    marginDb = 12,
  } = opts;
  const frameSamples = (sampleRate * FRAME_MS) / 1000;
  let pending = new Int16Array(0);
  let elapsedMs = 0;
  let noiseFloorDb = -60;
  const preRoll: Int16Array[] = [];
  let segment: { startMs: number; frames: Int16Array[]; voicedMs: number; silentMs: number } | null = null;

  function close(): SpeechSegment | null {
    const s = segment;
    segment = null;
    if (!s || s.voicedMs < minVoicedMs) return null;
    // The trailing pause carries no speech: keep a little of it, as after the pre-roll.
    const keep = s.frames.length - Math.max(0, Math.floor((s.silentMs - preRollMs) / FRAME_MS));
    const frames = s.frames.slice(0, keep);
    const samples = new Int16Array(frames.length * frameSamples);
    frames.forEach((f, i) => samples.set(f, i * frameSamples));
    return { startMs: s.startMs, endMs: s.startMs + frames.length * FRAME_MS, samples, sampleRate };
  }

  function frame(f: Int16Array): SpeechSegment | null {
    let sum = 0;
    for (const v of f) sum += v * v;
    const levelDb = 20 * Math.log10(Math.sqrt(sum / f.length) / 32768 + 1e-9);
    const voiced = levelDb > minLevelDb && levelDb > noiseFloorDb + marginDb;
    // The floor follows quiet frames quickly and loud ones slowly, so speech does not raise it much.
    noiseFloorDb += (levelDb - noiseFloorDb) * (levelDb < noiseFloorDb ? 0.2 : voiced ? 0.0005 : 0.02);
    const at = elapsedMs;
    elapsedMs += FRAME_MS;
    let done: SpeechSegment | null = null;
    if (!segment && voiced) {
      segment = { startMs: at - preRoll.length * FRAME_MS, frames: preRoll.splice(0), voicedMs: 0, silentMs: 0 };
    }
    if (segment) {
      segment.frames.push(f);
      if (voiced) {
        segment.voicedMs += FRAME_MS;
        segment.silentMs = 0;
      } else segment.silentMs += FRAME_MS;
      if (segment.silentMs >= pauseMs || segment.frames.length * FRAME_MS >= maxSegmentMs) done = close();
    } else {
      preRoll.push(f);
      if (preRoll.length > preRollMs / FRAME_MS) preRoll.shift();
    }
    return done;
  }

  return {
    /** Feeds samples; returns the segments they completed. */
    push(samples: Int16Array): SpeechSegment[] {
      const all = new Int16Array(pending.length + samples.length);
      all.set(pending);
      all.set(samples, pending.length);
      const out: SpeechSegment[] = [];
      let offset = 0;
      for (; offset + frameSamples <= all.length; offset += frameSamples) {
        const done = frame(all.slice(offset, offset + frameSamples));
        if (done) out.push(done);
      }
      pending = all.slice(offset);
      return out;
    },
    /** Ends the stream: the open segment, if it holds speech. */
    flush(): SpeechSegment | null {
      return close();
    },
  };
}

/**
 * A segment as a 16 kHz mono 16-bit WAV file — what speech-to-text models are trained on, and a
 * third of the upload at 48 kHz. 48 kHz is decimated by averaging each three samples, enough of a
 * low-pass for speech.
 */
export function toWav(segment: SpeechSegment): Uint8Array<ArrayBuffer> {
  const factor = segment.sampleRate % 16_000 === 0 ? segment.sampleRate / 16_000 : 1;
  const rate = segment.sampleRate / factor;
  const count = Math.floor(segment.samples.length / factor);
  const out = Buffer.alloc(44 + count * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + count * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(count * 2, 40);
  for (let i = 0; i < count; i++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += segment.samples[i * factor + k];
    out.writeInt16LE(Math.round(sum / factor), 44 + i * 2);
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength) as Uint8Array<ArrayBuffer>;
}
