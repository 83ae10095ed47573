/**
 * What a recording really holds, read with the same static ffmpeg the development media server
 * encodes with (there is no ffprobe in the package): its container, streams and duration, and the
 * brightness of a grabbed frame at chosen points.
 */
import { spawnSync } from 'node:child_process';
import { ffmpegPath } from '../../media-server/egress/ffmpeg';

/** The media server's own ffmpeg (linux-x64 CI always has it: a missing one fails here, with the reason). */
export const ffmpegBin = ffmpegPath();

export interface Probe {
  format: string;
  durationSeconds: number;
  video?: { codec: string; width: number; height: number; fps: number };
  audio?: { codec: string; sampleRate: number };
  /** Decoding the whole file ran without an error. */
  decodes: boolean;
}

/** `ffmpeg -i file -f null -`: decodes every frame and reports what it found. */
export function probe(file: string): Probe {
  const run = spawnSync(ffmpegBin, ['-hide_banner', '-nostats', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
  const out = run.stderr;
  const input = /Input #0, ([^,\s]+)/.exec(out);
  const duration = /Duration: (\d+):(\d+):([\d.]+)/.exec(out);
  const video = /Stream #0:\d+(?:\(\w+\))?: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})[^\n]*?, ([\d.]+) fps/.exec(out);
  const audio = /Stream #0:\d+(?:\(\w+\))?: Audio: (\w+)[^\n]*?, (\d+) Hz/.exec(out);
  return {
    format: input?.[1] ?? '',
    durationSeconds: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : 0,
    video: video
      ? { codec: video[1], width: Number(video[2]), height: Number(video[3]), fps: Number(video[4]) }
      : undefined,
    audio: audio ? { codec: audio[1], sampleRate: Number(audio[2]) } : undefined,
    decodes: run.status === 0,
  };
}

/** The loudest sample of the file's audio, in dBFS (-91 is digital silence). */
export function maxVolume(file: string): number {
  const run = spawnSync(ffmpegBin, ['-hide_banner', '-nostats', '-i', file, '-af', 'volumedetect', '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  return Number(/max_volume: (-?[\d.]+) dB/.exec(run.stderr)?.[1] ?? -91);
}

/**
 * The colour (r, g, b, 0–255) of the frame at `seconds`, sampled at points given as fractions of
 * the frame (x, y in 0..1). Chromium's fake camera is green on black, so green tells its tiles from
 * the canvas's black. The whole file is decoded up to that time (exact, and files here are short).
 */
export function colourAt(file: string, seconds: number, points: [number, number][]): [number, number, number][] {
  const [w, h] = [160, 90];
  const run = spawnSync(
    ffmpegBin,
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-ss', String(seconds), '-frames:v', '1'].concat([
      '-vf',
      `scale=${w}:${h}`,
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      'pipe:1',
    ]),
    { maxBuffer: 1 << 20 },
  );
  if (run.stdout.length < w * h * 3) throw new Error(`no frame at ${seconds}s in ${file}: ${run.stderr}`);
  return points.map(([x, y]) => {
    const i = (Math.min(h - 1, Math.floor(y * h)) * w + Math.min(w - 1, Math.floor(x * w))) * 3;
    return [run.stdout[i], run.stdout[i + 1], run.stdout[i + 2]];
  });
}
