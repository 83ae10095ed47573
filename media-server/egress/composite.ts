/**
 * A room-composite egress's media pipeline: a decoder per received track (track-decoder.ts), the
 * frame composed in Node at the preset's frame rate in the requested layout (layout.ts), everyone's
 * audio mixed, one encoder ffmpeg (H.264 + AAC, or Opus for an Ogg file) writing NUT to its stdout,
 * and one remuxing ffmpeg per output (MP4 or Ogg file, FLV to each RTMP URL) fed from it — so a
 * failing destination ends alone, with ffmpeg's reason, and the encoding is done once.
 *
 * Over 400 lines because the decoders, the frame clock, the mixer and the encoders share one
 * state that each frame reads; split by step, that state would be passed between files.
 */
import type { DevRoom, DevTrack } from '../rtc/room-state';
import { TrackSource, TrackType } from '@livekit/protocol';
import { spawnFfmpeg, type FfmpegProcess } from './ffmpeg';
import type { RtmpRelay } from './rtmp-relay';
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
  /**
   * Participant and track egress: only this participant's tracks (of these sources), or only this
   * one track; a room composite takes everyone's.
   */
  only?: { identity: string; sources?: TrackSource[]; trackSid?: string };
}

export type OutputTarget =
  | { kind: 'file'; path: string; container: 'mp4' | 'ogg' }
  /** `relay`: what ffmpeg publishes through (rtmp-relay.ts), started before the pipeline. */
  | { kind: 'stream'; url: string; relay?: RtmpRelay };

interface Output {
  target: OutputTarget;
  process: FfmpegProcess;
  relay?: RtmpRelay;
  failed?: string;
}

/**
 * What one egress may hold in this process, so an output that does not keep up (a destination that
 * accepts TCP and never reads) or an encoder that falls behind costs a bounded amount of memory.
 */
export const EGRESS_LIMITS = {
  /** Encoded bytes queued for one output's ffmpeg: about 10 s at 720p's 3 Mbps; past it the output fails. */
  outputQueueBytes: 4 * 1024 * 1024,
  /**
   * Raw frames queued for the encoder: four seconds of new pictures, at most 64 MiB (1.4 MB a frame
   * at 720p). Past it the encoder is behind (a busy machine): the last picture is queued again (the
   * same buffer, so it costs no memory) and a new one only every `heldPictureMs`, so the video goes
   * on at a lower frame rate with the audio, up to `encoderLagSeconds` behind in all; only past that
   * are frames (and their audio) dropped, and the file gets shorter than the call.
   */
  encoderQueueSeconds: 4,
  encoderQueueBytes: 64 * 1024 * 1024,
  heldPictureMs: 1000,
  encoderLagSeconds: 15,
  /** ffmpeg's I/O timeout towards a stream destination: connecting, the handshake, each write. */
  streamIoTimeoutMs: 10_000,
};

export interface CompositeHooks {
  /** An output's ffmpeg ended with an error (e.g. the RTMP server refused): its reason. */
  onOutputFailed(target: OutputTarget, reason: string): void;
  /** The encoder itself failed: the whole egress has failed. */
  onEncoderFailed(reason: string): void;
  /** The encoder took its first frame: the file's time 0 (on a busy machine its start takes seconds). */
  onStarted(): void;
  log(msg: string): void;
}

/** Re-checks who is in the room (new tracks, departures) this often. */
const SYNC_MS = 500;

export class CompositePipeline {
  private readonly decoders = new Map<string, TrackDecoder>();
  private readonly starting = new Set<string>();
  private readonly outputs: Output[] = [];
  private encoder?: FfmpegProcess;
  private canvas: Buffer;
  private timer?: NodeJS.Timeout;
  /** The file's time 0: it lasts as long as the egress ran (tiles are grey until their first frame). */
  private startedAt = 0;
  private framesWritten = 0;
  /** Frames not encoded because the encoder was far behind (logged when the egress stops). */
  private framesDropped = 0;
  /** Frames that repeated the last picture because the encoder was behind (logged when the egress stops). */
  private framesHeld = 0;
  /** The last picture composed, and when: what a frame repeats while the encoder is behind. */
  private lastFrame?: Buffer;
  private lastComposedAt = 0;
  private lastSync = 0;
  private focus?: string;
  private stopped = false;
  private spawnTurns = Promise.resolve();
  /** Every ffmpeg this pipeline ran (for CPU accounting). */
  readonly processes: FfmpegProcess[] = [];

  constructor(
    private readonly room: () => DevRoom | undefined,
    private readonly opts: CompositeOptions,
    targets: OutputTarget[],
    private readonly hooks: CompositeHooks,
  ) {
    this.canvas = blankFrame(opts.width, opts.height);
    this.start(targets).catch((err: Error) => this.hooks.onEncoderFailed(`the encoder failed: ${err.message}`));
  }

  /**
   * Resolves on a turn of the event loop of its own, one after another: each ffmpeg is spawned on
   * one, since a spawn (a fork of this process) takes tens of ms on a busy machine and the others'
   * signaling is answered in between.
   */
  private nextTurn() {
    this.spawnTurns = this.spawnTurns.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    return this.spawnTurns;
  }

  /** The audio streams the encoder writes, in order: AAC for MP4 and RTMP, Opus for Ogg. */
  private audioCodecs(targets: OutputTarget[]) {
    if (this.opts.videoOnly) return [];
    const codecs: ('aac' | 'opus')[] = [];
    if (targets.some((t) => t.kind === 'stream' || t.container === 'mp4')) codecs.push('aac');
    if (targets.some((t) => t.kind === 'file' && t.container === 'ogg')) codecs.push('opus');
    return codecs;
  }

  /** Spawns the outputs, then the encoder, each on its own turn of the event loop (nextTurn). */
  private async start(targets: OutputTarget[]) {
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
    for (const target of targets) {
      await this.nextTurn();
      if (this.stopped) return;
      const audio = (codec: 'aac' | 'opus') => {
        const i = audioCodecs.indexOf(codec);
        return i < 0 ? [] : ['-map', `0:a:${i}`];
      };
      // A stream's key stays off ffmpeg's command line: it publishes through its relay.
      const relay = target.kind === 'stream' ? target.relay : undefined;
      const args =
        target.kind === 'stream'
          ? [
              ...(audioOnly ? [] : ['-map', '0:v']),
              ...audio('aac'),
              ...['-c', 'copy', '-rw_timeout', String(EGRESS_LIMITS.streamIoTimeoutMs * 1000)],
              ...[...relay!.args, '-f', 'flv', relay!.url],
            ]
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
      const output: Output = { target, process, relay };
      this.outputs.push(output);
      void process.exited.then(({ code, signal }) => {
        relay?.close();
        if (code === 0 && !signal) return;
        output.failed ??= process.reason() || `ffmpeg exited ${code ?? signal}`;
        if (!this.stopped) this.hooks.onOutputFailed(target, output.failed);
      });
    }
    // The encoder last: every output is there for its first bytes (the NUT header).
    await this.nextTurn();
    if (this.stopped) return;
    const encoder = spawnFfmpeg([...inputs, ...maps, '-f', 'nut', 'pipe:1'], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.encoder = encoder;
    this.processes.push(encoder);
    void encoder.exited.then(({ code }) => {
      if (code && !this.stopped) this.hooks.onEncoderFailed(`the encoder failed: ${encoder.reason()}`);
    });
    encoder.child.stdout!.on('data', (chunk: Buffer) => {
      for (const o of this.outputs) {
        const stdin = o.process.child.stdin!;
        if (o.failed || !stdin.writable) continue;
        if (stdin.writableLength > EGRESS_LIMITS.outputQueueBytes) {
          // It stopped reading (its destination does not): it fails alone, and its queue goes with it.
          o.failed = `the output did not keep up (over ${EGRESS_LIMITS.outputQueueBytes / 1024 / 1024} MiB queued)`;
          stdin.destroy();
          o.process.child.kill('SIGKILL');
          continue;
        }
        stdin.write(chunk);
      }
    });
    encoder.child.stdout!.on('end', () => {
      for (const o of this.outputs) o.process.child.stdin!.end();
    });
    // Time 0 is when the encoder takes its first frame (its start takes seconds on a busy machine):
    // frames are counted from then, so the file lasts as long as the egress is ACTIVE.
    const samples = Math.round(SAMPLE_RATE / this.opts.fps);
    const taken = new Promise<void>((resolve) => {
      const first = this.videoIn ?? this.audioIn;
      if (this.videoIn) this.videoIn.write(this.compose(), () => resolve());
      this.audioIn?.write(this.mixAudio(samples), () => this.videoIn || resolve());
      if (!first) resolve();
    });
    await taken;
    if (this.stopped) return;
    this.startedAt = performance.now() - 1000 / this.opts.fps;
    this.framesWritten = 1;
    this.hooks.onStarted();
    this.timer = setInterval(() => this.tick(), 1000 / this.opts.fps);
  }

  private get videoIn() {
    return this.opts.audioOnly ? undefined : (this.encoder?.child.stdin ?? undefined);
  }
  private get audioIn() {
    if (this.opts.videoOnly) return undefined;
    return this.encoder?.child.stdio[this.opts.audioOnly ? 0 : 3] as NodeJS.WritableStream | null | undefined;
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
    const samplesPerFrame = Math.round(SAMPLE_RATE / this.opts.fps);
    // An encoder that falls behind (a busy machine) is not given new pictures (1.4 MB each at 720p)
    // at the full rate: the last one is queued again, which costs a reference, and a new one once
    // every heldPictureMs, so the file keeps the call's length, its audio and what happened in it
    // (a frozen first picture would show tiles still waiting for their first frame). Only an
    // encoder far behind has frames dropped, with their audio.
    const videoIn = this.videoIn;
    const frameBytes = (this.opts.width * this.opts.height * 3) / 2;
    const pictureQueue = Math.min(
      EGRESS_LIMITS.encoderQueueBytes,
      EGRESS_LIMITS.encoderQueueSeconds * this.opts.fps * frameBytes,
    );
    const lagQueue = EGRESS_LIMITS.encoderLagSeconds * this.opts.fps * frameBytes;
    const queued = videoIn?.writableLength ?? 0;
    if (videoIn && queued > lagQueue) {
      for (const decoder of this.decoders.values())
        if (decoder.track.type === TrackType.AUDIO) decoder.takeSamples(samplesPerFrame * (due - this.framesWritten));
      this.framesDropped += due - this.framesWritten;
      this.framesWritten = due;
      return;
    }
    const held =
      videoIn && queued > pictureQueue && this.lastFrame && now - this.lastComposedAt < EGRESS_LIMITS.heldPictureMs;
    const frame = this.opts.audioOnly ? undefined : held ? this.lastFrame : this.compose();
    if (frame && !held) this.lastComposedAt = now;
    this.lastFrame = frame;
    if (held) this.framesHeld += due - this.framesWritten;
    for (; this.framesWritten < due; this.framesWritten++) {
      if (frame) videoIn!.write(frame);
      const audioIn = this.audioIn;
      if (audioIn) audioIn.write(this.mixAudio(samplesPerFrame));
    }
  }

  /** The room's published tracks now (or the selected participant's, or the one track): each with media, in join order. */
  private roomTracks() {
    return selectedTracks(this.room(), this.opts.only);
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
        this.nextTurn()
          .then(() => startTrackDecoder(track, size, this.hooks.log))
          .then(
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
    if (this.framesHeld)
      this.hooks.log(
        `egress: ${this.framesHeld} frames repeated a picture (a new one each second), the encoder was behind`,
      );
    if (this.framesDropped) this.hooks.log(`egress: ${this.framesDropped} frames dropped, the encoder was behind`);
    for (const decoder of this.decoders.values()) decoder.close();
    this.decoders.clear();
    // Stopped before the encoder took its first frame: there is nothing to finish, and the outputs'
    // input will never end on its own.
    if (!this.startedAt)
      for (const o of this.outputs) {
        o.failed ??= 'stopped before the recording started';
        o.process.child.stdin?.end();
      }
    this.videoIn?.end();
    this.audioIn?.end();
    const finished = Promise.all([this.encoder?.exited, ...this.outputs.map((o) => o.process.exited)]);
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000).unref());
    if ((await Promise.race([finished, timeout])) === 'timeout') {
      for (const p of this.processes)
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      // Their exit handlers (registered first) mark a killed output failed: a file cut off is no file.
      await Promise.all(this.processes.map((p) => p.exited));
    }
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

/**
 * What an egress takes from the room now, with media: everyone's tracks (hidden participants
 * aside) for a room composite; one participant's, of the wanted sources, for a participant egress;
 * the one track for a track egress.
 */
export function selectedTracks(room: DevRoom | undefined, only?: CompositeOptions['only']) {
  if (!room) return [];
  const people = only
    ? [room.participants.get(only.identity)].filter((p) => p !== undefined)
    : [...room.participants.values()].filter((p) => !p.permission.hidden);
  return people
    .sort((a, b) => a.joinedAt - b.joinedAt)
    .map((participant) => ({
      participant,
      tracks: [...participant.tracks.values()].filter(
        (t) =>
          t.media &&
          !t.media.stopped &&
          (!only?.trackSid || t.sid === only.trackSid) &&
          (!only?.sources || only.sources.includes(t.source)),
      ),
    }));
}
