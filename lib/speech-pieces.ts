/**
 * What the transcript job uploads to the speech-to-text API. Providers refuse large uploads
 * (OpenAI and Groq: 25 MB), and a composite MP4 passes that in a few minutes of video. A recording
 * that fits (`STT_MAX_UPLOAD_BYTES`) goes as it is; a larger one is reduced to its audio — mono
 * 16 kHz Opus at 24 kb/s in Ogg, about 11 MB an hour — and cut into pieces that each fit, each
 * with its start in the recording, so the segments of every piece can be placed on one timeline.
 * The reduction needs ffmpeg, taken from the optional npm package `@ffmpeg-installer/linux-x64`.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export interface SpeechPiece {
  bytes: Uint8Array<ArrayBuffer>;
  filename: string;
  contentType: string;
  /** Seconds from the recording's start to this piece's. */
  startsAt: number;
}

/** Opus at 24 kb/s, with room for the Ogg pages around it. */
const BYTES_PER_SECOND = 3_300;
/** At most 20 minutes a piece: a failed upload costs one piece, and providers answer a piece sooner. */
const MAX_PIECE_SECONDS = 1_200;

function ffmpegPath(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json');
    const bin = path.join(path.dirname(pkg), 'ffmpeg');
    accessSync(bin, constants.X_OK);
    return bin;
  } catch {
    return undefined;
  }
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

export async function speechPieces({
  recording,
  audioOnly,
  maxBytes,
}: {
  recording: Uint8Array<ArrayBuffer>;
  /** An Ogg/Opus recording (an audio-only egress), else an MP4. */
  audioOnly: boolean;
  maxBytes: number;
}): Promise<SpeechPiece[]> {
  if (recording.byteLength <= maxBytes)
    return [
      audioOnly
        ? { bytes: recording, filename: 'recording.ogg', contentType: 'audio/ogg', startsAt: 0 }
        : { bytes: recording, filename: 'recording.mp4', contentType: 'video/mp4', startsAt: 0 },
    ];
  const ffmpeg = ffmpegPath();
  if (!ffmpeg)
    throw new Error(
      `the recording is ${megabytes(recording.byteLength)}, over the speech-to-text upload limit of ${megabytes(maxBytes)} (STT_MAX_UPLOAD_BYTES), and ffmpeg, which cuts its audio into pieces that fit, is not installed (the optional npm package @ffmpeg-installer/linux-x64)`,
    );
  const pieceSeconds = Math.max(1, Math.min(MAX_PIECE_SECONDS, Math.floor((maxBytes * 0.8) / BYTES_PER_SECOND)));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'convene-speech-'));
  try {
    // A file, not a pipe: an MP4's index may sit at its end, which ffmpeg cannot seek to on a pipe.
    const input = path.join(dir, audioOnly ? 'recording.ogg' : 'recording.mp4');
    await writeFile(input, recording);
    const list = path.join(dir, 'pieces.csv');
    await run(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      input,
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'libopus',
      '-b:a',
      '24k',
      '-f',
      'segment',
      '-segment_time',
      String(pieceSeconds),
      '-segment_list',
      list,
      '-segment_list_type',
      'csv',
      '-reset_timestamps',
      '1',
      path.join(dir, 'piece-%04d.ogg'),
    ]);
    // One line per piece: its file name, start and end in seconds.
    const rows = (await readFile(list, 'utf8')).trim().split('\n').filter(Boolean);
    const pieces: SpeechPiece[] = [];
    for (const row of rows) {
      const [name, start] = row.split(',');
      const bytes = new Uint8Array(await readFile(path.join(dir, name)));
      if (bytes.byteLength > maxBytes)
        throw new Error(
          `a piece of the recording's audio is ${megabytes(bytes.byteLength)}, over the speech-to-text upload limit of ${megabytes(maxBytes)} (STT_MAX_UPLOAD_BYTES)`,
        );
      pieces.push({ bytes, filename: name, contentType: 'audio/ogg', startsAt: Number(start) });
    }
    if (!pieces.length) throw new Error('the recording holds no audio to transcribe');
    return pieces;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(bin: string, args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else {
        const reason = stderr.trim().split('\n').filter(Boolean).at(-1) ?? `exit code ${code}`;
        reject(new Error(`the recording's audio could not be read: ${reason}`));
      }
    });
  });
}
