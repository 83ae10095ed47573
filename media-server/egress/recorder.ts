/**
 * Egress on the development media server: a room-composite egress (LiveKit's
 * StartRoomCompositeEgress) composes the room in the requested layout and encodes it with ffmpeg
 * (composite.ts) to MP4 (H.264 + AAC) or Ogg (Opus) files and to RTMP streams. Its life is
 * reported as LiveKit egress reports it: egress_started, egress_updated (ACTIVE, a stream that
 * failed, ENDING), egress_ended with fileResults / streamResults, EGRESS_FAILED always with a reason
 * (no ffmpeg here, an upload it cannot do, nothing published, every output failed).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  EgressInfo,
  EgressStatus,
  EncodedFileType,
  EncodingOptionsPreset,
  FileInfo,
  StreamInfo,
  StreamInfo_Status,
  type RoomCompositeEgressRequest,
} from '@livekit/protocol';
import { newSid } from '../rtc/room-state';
import type { Registry } from '../rtc/registry';
import type { WebhookSender } from '../webhooks/sender';
import { CompositePipeline, type CompositeOptions, type OutputTarget } from './composite';
import { ffmpegUnavailable } from './ffmpeg';
import { layoutName } from './layout';

interface Job {
  info: EgressInfo;
  /** The request as the API received it (JSON). */
  request: Record<string, unknown>;
  options: CompositeOptions;
  targets: OutputTarget[];
  pipeline?: CompositePipeline;
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

/** LiveKit's presets: size, frame rate and video bitrate. */
const PRESETS: Record<number, Pick<CompositeOptions, 'width' | 'height' | 'fps' | 'videoKbps'>> = {
  [EncodingOptionsPreset.H264_720P_30]: { width: 1280, height: 720, fps: 30, videoKbps: 3000 },
  [EncodingOptionsPreset.H264_720P_60]: { width: 1280, height: 720, fps: 60, videoKbps: 4500 },
  [EncodingOptionsPreset.H264_1080P_30]: { width: 1920, height: 1080, fps: 30, videoKbps: 4500 },
  [EncodingOptionsPreset.H264_1080P_60]: { width: 1920, height: 1080, fps: 60, videoKbps: 6000 },
  [EncodingOptionsPreset.PORTRAIT_H264_720P_30]: { width: 720, height: 1280, fps: 30, videoKbps: 3000 },
  [EncodingOptionsPreset.PORTRAIT_H264_720P_60]: { width: 720, height: 1280, fps: 60, videoKbps: 4500 },
  [EncodingOptionsPreset.PORTRAIT_H264_1080P_30]: { width: 1080, height: 1920, fps: 30, videoKbps: 4500 },
  [EncodingOptionsPreset.PORTRAIT_H264_1080P_60]: { width: 1080, height: 1920, fps: 60, videoKbps: 6000 },
};

function compositeOptions(req: RoomCompositeEgressRequest): CompositeOptions {
  const even = (n: number) => Math.max(16, Math.floor(n / 2) * 2);
  let encoding = PRESETS[EncodingOptionsPreset.H264_720P_30];
  if (req.options.case === 'preset' && PRESETS[req.options.value]) encoding = PRESETS[req.options.value];
  if (req.options.case === 'advanced') {
    const a = req.options.value;
    encoding = {
      width: even(a.width || encoding.width),
      height: even(a.height || encoding.height),
      fps: Math.min(60, Math.max(1, Math.round(a.framerate || encoding.fps))),
      videoKbps: a.videoBitrate || encoding.videoKbps,
    };
  }
  return { ...encoding, layout: layoutName(req.layout), audioOnly: req.audioOnly, videoOnly: req.videoOnly };
}

/** What the request asks for, or why this server cannot do it. */
function outputTargets(req: RoomCompositeEgressRequest): OutputTarget[] | string {
  const files = [...req.fileOutputs, ...(req.output.case === 'file' ? [req.output.value] : [])];
  const urls = [
    ...req.streamOutputs.flatMap((s) => s.urls),
    ...(req.output.case === 'stream' ? req.output.value.urls : []),
  ];
  if (req.segmentOutputs.length || req.output.case === 'segments' || req.imageOutputs.length)
    return 'segmented (HLS) and image outputs are not supported by the development media server';
  const upload = files.find((f) => f.output.case)?.output.case;
  if (upload) return `${upload} upload is not supported by the development media server (it writes local files)`;
  if (!files.length && !urls.length) return 'the request has no file or stream output';
  if (req.audioOnly && req.videoOnly) return 'audio_only and video_only cannot both be set';
  const bad = urls.find((u) => !/^rtmps?:\/\//.test(u));
  if (bad) return `only rtmp:// and rtmps:// stream URLs are supported, not ${redactStreamUrl(bad)}`;
  return [
    ...files.map((f): OutputTarget => {
      const ext = path.extname(f.filepath).toLowerCase();
      const ogg =
        f.fileType === EncodedFileType.OGG ||
        (f.fileType !== EncodedFileType.MP4 &&
          (ext === '.ogg' || ext === '.opus' || (ext !== '.mp4' && req.audioOnly)));
      return { kind: 'file', path: path.resolve(f.filepath), container: ogg ? 'ogg' : 'mp4' };
    }),
    ...urls.map((url): OutputTarget => ({ kind: 'stream', url })),
  ];
}

/** A stream URL as egress reports it: the stream key (last path segment) hidden, as LiveKit does. */
function redactStreamUrl(url: string) {
  return url.replace(/\/[^/]+$/, '/{sk}');
}

export function createRecorder(deps: { registry: Registry; webhooks: WebhookSender; log: (msg: string) => void }) {
  const jobs = new Map<string, Job>();
  const now = () => BigInt(Date.now()) * 1_000_000n;

  /** Tells the room's clients whether any recording of it is running. */
  function showRecording(roomName: string) {
    const active = [...jobs.values()].some(
      (j) => j.info.roomName === roomName && j.pipeline && j.info.status === EgressStatus.EGRESS_ACTIVE,
    );
    deps.registry.rooms.get(roomName)?.setRecording(active);
  }

  const emit = (event: 'egress_updated' | 'egress_ended', job: Job) =>
    void deps.webhooks.emit({ event, egressInfo: new EgressInfo(job.info) });

  function fail(job: Job, error: string) {
    if (job.info.status >= EgressStatus.EGRESS_COMPLETE) return;
    clearInterval(job.timer);
    job.pipeline?.abort();
    job.info.status = EgressStatus.EGRESS_FAILED;
    job.info.error = error || 'egress failed';
    job.info.endedAt = now();
    for (const s of job.info.streamResults) {
      if (s.status !== StreamInfo_Status.ACTIVE) continue;
      s.status = StreamInfo_Status.FAILED;
      s.error ||= job.info.error;
      s.endedAt = now();
    }
    showRecording(job.info.roomName);
    deps.log(`egress ${job.info.egressId} failed: ${job.info.error}`);
    emit('egress_ended', job);
  }

  function streamResult(job: Job, url: string) {
    return job.info.streamResults.find((s) => s.url === redactStreamUrl(url));
  }

  /** Starts the pipeline once the room has media; polled, as publishers may arrive after the request. */
  function tryStart(job: Job) {
    const room = deps.registry.rooms.get(job.info.roomName);
    if (!room || job.pipeline || job.info.status !== EgressStatus.EGRESS_STARTING) return;
    const published = [...room.participants.values()].some((p) => [...p.tracks.values()].some((t) => t.media));
    if (!published) return;
    clearInterval(job.timer);
    for (const t of job.targets) if (t.kind === 'file') mkdirSync(path.dirname(t.path), { recursive: true });
    job.pipeline = new CompositePipeline(() => deps.registry.rooms.get(job.info.roomName), job.options, job.targets, {
      log: deps.log,
      onEncoderFailed: (reason) => fail(job, reason),
      onOutputFailed(target, ffmpegReason) {
        // ffmpeg names the URL it failed on: the stream key must not travel on in the reason.
        const key = target.kind === 'stream' ? /[^/]+$/.exec(target.url)?.[0] : undefined;
        const reason = key ? ffmpegReason.split(key).join('{sk}') : ffmpegReason;
        if (target.kind === 'stream') {
          const s = streamResult(job, target.url);
          if (s) Object.assign(s, { status: StreamInfo_Status.FAILED, error: reason, endedAt: now() });
        }
        const what = target.kind === 'stream' ? `the stream to ${redactStreamUrl(target.url)}` : 'the file output';
        deps.log(`egress ${job.info.egressId}: ${what} failed: ${reason}`);
        const alive = job.targets.some(
          (t) => t.kind === 'file' || streamResult(job, t.url)?.status === StreamInfo_Status.ACTIVE,
        );
        if (!alive || target.kind === 'file') fail(job, `${what} failed: ${reason}`);
        else emit('egress_updated', job);
      },
    });
    job.startedAt = Date.now();
    for (const s of job.info.streamResults) s.startedAt = now();
    job.info.status = EgressStatus.EGRESS_ACTIVE;
    showRecording(job.info.roomName);
    emit('egress_updated', job);
    // LiveKit's egress ends with the room.
    job.timer = setInterval(() => {
      if (!deps.registry.rooms.has(job.info.roomName)) void finish(job);
    }, 1000);
    job.timer.unref();
  }

  async function finish(job: Job) {
    clearInterval(job.timer);
    if (job.info.status >= EgressStatus.EGRESS_ENDING) return;
    job.info.status = EgressStatus.EGRESS_ENDING;
    showRecording(job.info.roomName);
    emit('egress_updated', job);
    if (!job.pipeline) return fail(job, 'nothing was published in the room to record');
    const results = await job.pipeline.stop();
    if (job.info.status !== EgressStatus.EGRESS_ENDING) return; // failed meanwhile
    const endedAt = now();
    job.startedAt ??= Date.now();
    const duration = BigInt(Date.now() - job.startedAt) * 1_000_000n;
    for (const s of job.info.streamResults) {
      if (s.status !== StreamInfo_Status.ACTIVE) continue;
      Object.assign(s, { status: StreamInfo_Status.FINISHED, endedAt, duration });
    }
    const files: FileInfo[] = [];
    for (const { target, failed } of results) {
      if (target.kind !== 'file') continue;
      if (failed) return fail(job, `the file output failed: ${failed}`);
      const size = (() => {
        try {
          return statSync(target.path).size;
        } catch {
          return 0;
        }
      })();
      if (!size) return fail(job, 'the recording is empty');
      files.push(
        new FileInfo({
          filename: target.path,
          location: target.path,
          size: BigInt(size),
          duration,
          startedAt: BigInt(job.startedAt) * 1_000_000n,
          endedAt,
        }),
      );
    }
    if (!files.length && !job.info.streamResults.some((s) => s.status === StreamInfo_Status.FINISHED))
      return fail(job, job.info.streamResults.find((s) => s.error)?.error || 'every output failed');
    job.info.fileResults = files;
    job.info.status = EgressStatus.EGRESS_COMPLETE;
    job.info.endedAt = endedAt;
    showRecording(job.info.roomName);
    emit('egress_ended', job);
  }

  return {
    list: () => [...jobs.values()].map((j) => j.info),
    jobs: () => [...jobs.values()].map(({ info, request }) => ({ info, request })),
    /** Every ffmpeg the running egresses use (the benchmark's CPU accounting). */
    processes: () => [...jobs.values()].flatMap((j) => j.pipeline?.processes ?? []),
    async start(req: RoomCompositeEgressRequest, request: Record<string, unknown>): Promise<EgressInfo> {
      const info = new EgressInfo({
        egressId: newSid('EG'),
        roomName: req.roomName,
        status: EgressStatus.EGRESS_STARTING,
        startedAt: now(),
        request: { case: 'roomComposite', value: req },
      });
      const targets = outputTargets(req);
      const job: Job = {
        info,
        request,
        options: compositeOptions(req),
        targets: typeof targets === 'string' ? [] : targets,
      };
      info.streamResults = job.targets.flatMap((t) =>
        t.kind === 'stream' ? [new StreamInfo({ url: redactStreamUrl(t.url), status: StreamInfo_Status.ACTIVE })] : [],
      );
      jobs.set(info.egressId, job);
      void deps.webhooks.emit({ event: 'egress_started', egressInfo: new EgressInfo(info) });
      // Refusals arrive as LiveKit sends them: the request is accepted, then egress_ended says why.
      const refusal = typeof targets === 'string' ? targets : ffmpegUnavailable();
      if (refusal) {
        setTimeout(() => fail(job, refusal), 100).unref();
        return new EgressInfo(info);
      }
      tryStart(job);
      if (!job.pipeline) {
        job.timer = setInterval(() => tryStart(job), 500);
        job.timer.unref();
      }
      return new EgressInfo(info);
    },
    async stop(egressId: string): Promise<EgressInfo> {
      const job = jobs.get(egressId);
      if (!job) throw Object.assign(new Error('egress not found'), { status: 404, code: 'not_found' });
      if (job.info.status >= EgressStatus.EGRESS_ENDING) return new EgressInfo(job.info);
      void finish(job).catch((err: unknown) => fail(job, err instanceof Error ? err.message : String(err)));
      return new EgressInfo(job.info);
    },
    /** Ends every running egress (the server is shutting down). */
    close() {
      for (const job of jobs.values()) {
        clearInterval(job.timer);
        job.pipeline?.abort();
      }
    },
  };
}
export type Recorder = ReturnType<typeof createRecorder>;
