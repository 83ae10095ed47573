/**
 * Recordings as the media layer's egress writes them, made of the test voices: a participant's
 * microphone as Ogg/Opus (track egress) or their camera and microphone as MP4 (H.264 + AAC,
 * participant egress), with `leadSeconds` of silence before the phrase.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ffmpegBin } from '../../support/media-probe';
import { voiceWav, type Voice } from './voices';

export function voiceRecording(
  voice: Voice,
  container: 'ogg' | 'mp4',
  { leadSeconds = 0.5, repeats = 1 } = {},
): Buffer {
  const { file } = voiceWav(voice, 1);
  const out = path.join(path.dirname(file), `recording.${container}`);
  const audio = ['-f', 'lavfi', '-t', String(leadSeconds), '-i', 'anullsrc=r=48000:cl=mono'];
  audio.push('-stream_loop', String(repeats - 1), '-i', file);
  const concat =
    '[0:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=mono[s];[1:a]aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=mono[v];[s][v]concat=n=2:v=0:a=1[a]';
  const args =
    container === 'ogg'
      ? [...audio, '-filter_complex', concat, '-map', '[a]', '-ac', '1', '-c:a', 'libopus', '-b:a', '32k', out]
      : [
          ...audio,
          ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
          ...['-filter_complex', concat, '-map', '2:v', '-map', '[a]', '-shortest'],
          ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', out],
        ];
  const run = spawnSync(ffmpegBin, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (run.status !== 0) throw new Error(`ffmpeg: ${run.stderr.toString()}`);
  return readFileSync(out);
}
