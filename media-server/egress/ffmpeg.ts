/**
 * The ffmpeg that egress encodes with and RTMP ingress transcodes with: the static build in the
 * optional npm package `@ffmpeg-installer/linux-x64` (libx264, libvpx, libopus, aac, rtmp). Elsewhere
 * it is absent: every egress then ends EGRESS_FAILED, and an RTMP ingress ENDPOINT_ERROR, with the
 * reason from `ffmpegUnavailable()`.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';

let located: { path?: string; reason?: string } | undefined;

/** How much lower every ffmpeg runs than the media server (nice, 0–19). */
export const FFMPEG_NICENESS = 10;

/** Children still running: killed when this process exits, so no decoder outlives its server. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function locate() {
  if (located) return located;
  try {
    const pkg = createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json');
    const bin = path.join(path.dirname(pkg), 'ffmpeg');
    accessSync(bin, constants.X_OK);
    located = { path: bin };
  } catch {
    located = {
      reason: `recording, streaming and RTMP ingress need ffmpeg, which the development media server takes from the optional npm package @ffmpeg-installer/linux-x64 (Linux x64 only); it is not installed on this ${process.platform}-${process.arch} machine`,
    };
  }
  return located;
}

/** Why egress cannot run here, or undefined when ffmpeg is available. */
export function ffmpegUnavailable(): string | undefined {
  return locate().reason;
}

export function ffmpegPath(): string {
  const found = locate();
  if (!found.path) throw new Error(found.reason);
  return found.path;
}

/**
 * An ffmpeg child writing only errors on stderr unless `loglevel` asks for more (its last line is
 * the reason when it fails); killed if this process exits first.
 */
export function spawnFfmpeg(
  args: string[],
  { loglevel = 'error', ...options }: SpawnOptions & { loglevel?: 'error' | 'info' } = {},
): FfmpegProcess {
  const child = spawn(ffmpegPath(), ['-hide_banner', '-nostats', '-loglevel', loglevel, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options,
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // Below this process: on a busy machine the encoders and decoders wait, not everyone's signaling
  // and forwarding (three 720p encoders alone fill two cores).
  if (child.pid) {
    try {
      os.setPriority(child.pid, FFMPEG_NICENESS);
    } catch {
      // not permitted here: it runs at this process's priority
    }
  }
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  // A child that died leaves its pipes to fail with EPIPE: the exit code says what happened.
  for (const stream of child.stdio) stream?.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (err) => {
      stderr += err.message;
      resolve({ code: -1, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    exited,
    /** ffmpeg's own words for a failure: the last non-empty stderr line. */
    reason: () => stderr.trim().split('\n').filter(Boolean).slice(-1)[0]?.trim() ?? '',
  };
}

export interface FfmpegProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  reason(): string;
}
