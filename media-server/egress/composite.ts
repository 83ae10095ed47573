/**
 * A room-composite egress's media pipeline: a decoder per received track (track-decoder.ts), the
 * frame composed in Node at the preset's frame rate in the requested layout (layout.ts), everyone's
 * audio mixed, one encoder ffmpeg (H.264 + AAC, or Opus for an Ogg file) writing NUT to its stdout,
 * and one remuxing ffmpeg per output (MP4 or Ogg file, FLV to each RTMP URL) fed from it — so a
 * failing destination ends alone, with ffmpeg's reason, and the encoding is done once.
 */
import type { DevRoom, DevTrack } from '../rtc/room-state';
import { TrackSource, TrackType } from '@livekit/protocol';
import { spawnFfmpeg, type FfmpegProcess } from './ffmpeg';
import { blankFrame, drawTile, fillTile, layoutTiles, mix, type LayoutName } from './layout';
import { SAMPLE_RATE, startTrackDecoder, type TrackDecoder } from './track-decoder';

export interface CompositeOptions {
  width: number;
  height: number;
  fps: number;
  /** Video bitrate, kbps. */
  videoKbps: number;
  layout: LayoutName;
  audioOnly: boolean;
  videoOnly: boolean;
}

export type OutputTarget = { kind: 'file'; path: string; container: 'mp4' | 'ogg' } | { kind: 'stream'; url: string };

interface Output {
  target: OutputTarget;
  process: FfmpegProcess;
  failed?: string;
}

export interface CompositeHooks {
  /** An output's ffmpeg ended with an error (e.g. the RTMP server refused): its reason. */
  onOutputFailed(target: OutputTarget, reason: string): void;
  /** The encoder itself failed: the whole egress has failed. */
  onEncoderFailed(reason: string): void;
  log(msg: string): void;
}

/** Re-checks who is in the room (new tracks, departures) this often. */
const SYNC_MS = 500;

export class CompositePipeline {
  private readonly decoders = new Map<string, TrackDecoder>();
  private readonly starting = new Set<string>();
  private readonly outputs: Output[] = [];
  private encoder!: FfmpegProcess;
  private canvas: Buffer;
  private timer?: NodeJS.Timeout;
  /** The file's time 0: it lasts as long as the egress ran (tiles are grey until their first frame). */
  private readonly startedAt = performance.now();
  private framesWritten = 0;
  private lastSync = 0;
  private focus?: string;
  private stopped = false;
  /** Every ffmpeg this pipeline ran (for CPU accounting). */
  readonly processes: FfmpegProcess[] = [];

  constructor(
    private readonly room: () => DevRoom | undefined,
    private readonly opts: CompositeOptions,
    targets: OutputTarget[],
    private readonly hooks: CompositeHooks,
  ) {
    this.canvas = blankFrame(opts.width, opts.height);
    this.startEncoder(targets);
  }

  /** The audio streams the encoder writes, in order: AAC for MP4 and RTMP, Opus for Ogg. */
  private audioCodecs(targets: OutputTarget[]) {
    if (this.opts.videoOnly) return [];
    const codecs: ('aac' | 'opus')[] = [];
    if (targets.some((t) => t.kind === 'stream' || t.container === 'mp4')) codecs.push('aac');
    if (targets.some((t) => t.kind === 'file' && t.container === 'ogg')) codecs.push('opus');
    return codecs;
  }

  private startEncoder(targets: OutputTarget[]) {
    const { width, height, fps, audioOnly, videoKbps } = this.opts;
    const audioCodecs = this.audioCodecs(targets);
    const inputs: string[] = [];
    const maps: string[] = [];
    if (!audioOnly) {
      inputs.push('-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', String(fps));
      inputs.push('-i', 'pipe:0');
      maps.push('-map', '0:v', '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency');
      maps.push('-pix_fmt', 'yuv420p', '-g', String(fps * 2), '-b:v', `${videoKbps}k`);
    }
    if (audioCodecs.length) {
      inputs.push('-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '1', '-i', audioOnly ? 'pipe:0' : 'pipe:3');
      const index = audioOnly ? 0 : 1;
      audioCodecs.forEach((codec, i) => {
        maps.push('-map', `${index}:a`);
        maps.push(`-c:a:${i}`, codec === 'aac' ? 'aac' : 'libopus', `-b:a:${i}`, codec === 'aac' ? '128k' : '64k');
      });
    }
    this.encoder = spawnFfmpeg([...inputs, ...maps, '-f', 'nut', 'pipe:1'], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.processes.push(this.encoder);
    void this.encoder.exited.then(({ code }) => {
      if (code && !this.stopped) this.hooks.onEncoderFailed(`the encoder failed: ${this.encoder.reason()}`);
    });
    for (const target of targets) {
      const audio = (codec: 'aac' | 'opus') => {
        const i = audioCodecs.indexOf(codec);
        return i < 0 ? [] : ['-map', `0:a:${i}`];
      };
      const args =
        target.kind === 'stream'
          ? [...(audioOnly ? [] : ['-map', '0:v']), ...audio('aac'), '-c', 'copy', '-f', 'flv', target.url]
          : target.container === 'ogg'
            ? [...audio('opus'), '-c', 'copy', '-f', 'ogg', '-y', target.path]
            : [
                ...(audioOnly ? [] : ['-map', '0:v']),
                ...audio('aac'),
                '-c',
                'copy',
                '-movflags',
                '+faststart',
                '-f',
                'mp4',
                '-y',
                target.path,
              ];
      const process = spawnFfmpeg(['-f', 'nut', '-i', 'pipe:0', ...args]);
      this.processes.push(process);
      const output: Output = { target, process };
      this.outputs.push(output);
      void process.exited.then(({ code, signal }) => {
        if (code === 0 && !signal) return;
        output.failed = process.reason() || `ffmpeg exited ${code ?? signal}`;
        if (!this.stopped) this.hooks.onOutputFailed(target, output.failed);
      });
    }
    this.encoder.child.stdout!.on('data', (chunk: Buffer) => {
      for (const o of this.outputs)
        if (!o.failed && o.process.child.stdin!.writable) o.process.child.stdin!.write(chunk);
    });
    this.encoder.child.stdout!.on('end', () => {
      for (const o of this.outputs) o.process.child.stdin!.end();
    });
    this.timer = setInterval(() => this.tick(), 1000 / this.opts.fps);
  }

  private get videoIn() {
    return this.opts.audioOnly ? undefined : this.encoder.child.stdio[0];
  }
  private get audioIn() {
    if (this.opts.videoOnly) return undefined;
    return this.encoder.child.stdio[this.opts.audioOnly ? 0 : 3] as NodeJS.WritableStream | null;
  }

  /** Writes as many frames (and their audio) as wall-clock time calls for: the file lasts as long as the call. */
  private tick() {
    if (this.stopped) return;
    const now = performance.now();
    if (now - this.lastSync >= SYNC_MS) {
      this.lastSync = now;
      this.syncTracks();
    }
    const due = Math.floor(((now - this.startedAt) * this.opts.fps) / 1000) + 1;
    if (this.framesWritten >= due) return;
    const frame = this.opts.audioOnly ? undefined : this.compose();
    const samplesPerFrame = Math.round(SAMPLE_RATE / this.opts.fps);
    for (; this.framesWritten < due; this.framesWritten++) {
      if (frame) (this.videoIn as NodeJS.WritableStream).write(frame);
      const audioIn = this.audioIn;
      if (audioIn) audioIn.write(this.mixAudio(samplesPerFrame));
    }
  }

  /** The room's published tracks now: each with media, in join order. */
  private roomTracks() {
    const room = this.room();
    if (!room) return [];
    return [...room.participants.values()]
      .filter((p) => !p.permission.hidden)
      .sort((a, b) => a.joinedAt - b.joinedAt)
      .map((participant) => ({
        participant,
        tracks: [...participant.tracks.values()].filter((t) => t.media && !t.media.stopped),
      }));
  }

  /** Starts a decoder for each new track and ends those of tracks that are gone. */
  private syncTracks() {
    const present = new Set<string>();
    for (const { tracks } of this.roomTracks()) {
      for (const track of tracks) {
        const video = track.type === TrackType.VIDEO;
        if ((video && this.opts.audioOnly) || (!video && this.opts.videoOnly)) continue;
        present.add(track.sid);
        if (this.decoders.has(track.sid) || this.starting.has(track.sid)) continue;
        this.starting.add(track.sid);
        const size = video ? this.decoderSize(track) : { width: 0, height: 0 };
        startTrackDecoder(track, size, this.hooks.log).then(
          (decoder) => {
            this.starting.delete(track.sid);
            if (this.stopped) return decoder.close();
            this.decoders.set(track.sid, decoder);
            this.processes.push(decoder.process);
          },
          (err: Error) => {
            this.starting.delete(track.sid);
            this.hooks.log(`egress decoder for ${track.sid}: ${err.message}`);
          },
        );
      }
    }
    for (const [sid, decoder] of this.decoders) {
      if (present.has(sid)) continue;
      decoder.close();
      this.decoders.delete(sid);
    }
  }

  /** A new track's decoder writes frames the size of its tile now (at most 720p); later layouts rescale. */
  private decoderSize(track: DevTrack) {
    const tile = this.tiles().find((t) => t.key === track.sid);
    const width = Math.min(1280, tile?.width ?? this.opts.width);
    const height = Math.min(720, tile?.height ?? this.opts.height);
    return { width, height };
  }

  /** One tile per video track, and one (grey) for each participant without video. */
  private tiles() {
    const room = this.room();
    const keys: string[] = [];
    let screen: string | undefined;
    const cameraOf = new Map<string, string>();
    for (const { participant, tracks } of this.roomTracks()) {
      const videos = tracks.filter((t) => t.type === TrackType.VIDEO);
      if (!videos.length) keys.push(participant.sid);
      for (const t of videos) {
        keys.push(t.sid);
        if (t.source === TrackSource.SCREEN_SHARE) screen ??= t.sid;
        else if (!cameraOf.has(participant.sid)) cameraOf.set(participant.sid, t.sid);
      }
    }
    // The focus: a screen share, else the loudest current speaker (the server's speaker detection), else the last one.
    const speakers = [...(room?.speakers ?? new Map<string, number>())].sort((a, b) => b[1] - a[1]);
    const speaker = speakers[0]?.[0];
    if (speaker) this.focus = cameraOf.get(speaker) ?? speaker;
    return layoutTiles(this.opts.layout, keys, screen ?? this.focus, this.opts.width, this.opts.height);
  }

  private compose() {
    const { width, height } = this.opts;
    const canvas = this.canvas;
    canvas.fill(0, 0, width * height);
    canvas.fill(128, width * height);
    for (const tile of this.tiles()) {
      const decoder = this.decoders.get(tile.key);
      const frame = decoder?.latestFrame;
      if (frame && !decoder.track.muted) drawTile(canvas, width, height, tile, frame, decoder.width, decoder.height);
      else fillTile(canvas, width, height, tile);
    }
    return Buffer.from(canvas);
  }

  private mixAudio(samples: number) {
    const tracks: Int16Array[] = [];
    for (const decoder of this.decoders.values()) {
      if (decoder.track.type !== TrackType.AUDIO) continue;
      const taken = decoder.takeSamples(samples);
      if (!decoder.track.muted) tracks.push(taken);
    }
    return mix(tracks, samples);
  }

  /** Ends the inputs, lets the encoder and every output finish their files; failed outputs keep their reason. */
  async stop() {
    if (this.stopped) return this.results();
    this.stopped = true;
    clearInterval(this.timer);
    for (const decoder of this.decoders.values()) decoder.close();
    this.decoders.clear();
    this.videoIn?.end();
    this.audioIn?.end();
    const finished = Promise.all([this.encoder.exited, ...this.outputs.map((o) => o.process.exited)]);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 20_000).unref());
    await Promise.race([finished, timeout]);
    for (const p of this.processes)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    return this.results();
  }

  /** Ends everything at once (the egress failed). */
  abort() {
    this.stopped = true;
    clearInterval(this.timer);
    for (const decoder of this.decoders.values()) decoder.close();
    this.decoders.clear();
    for (const p of this.processes) p.child.kill('SIGKILL');
  }

  private results() {
    return this.outputs.map((o) => ({ target: o.target, failed: o.failed }));
  }
}
