/**
 * Egress on the development media server: a room-composite egress (LiveKit's
 * StartRoomCompositeEgress) composes the room in the requested layout and encodes it with ffmpeg
 * (composite.ts) to MP4 (H.264 + AAC) or Ogg (Opus) files and to RTMP streams. A participant egress
 * (StartParticipantEgress) does the same with one participant's camera and microphone (or screen
 * share and its audio) and ends when they leave; a track egress (StartTrackEgress) writes one
 * microphone track to an Ogg (Opus) file and ends when the track is unpublished — LiveKit writes a
 * track egress without transcoding, this server decodes and encodes it again. Their life is
 * reported as LiveKit egress reports it: egress_started, egress_updated (ACTIVE, a stream that
 * failed, ENDING), egress_ended with fileResults / streamResults, EGRESS_FAILED always with a reason
 * (no ffmpeg here, an upload it cannot do, nothing published, every output failed).
 *
 * Over 400 lines because it is one state machine: the three kinds start, run, stop and report
 * through the same job record and the same webhooks; split by kind, each would repeat it.
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
  TrackSource,
  TrackType,
  type EncodedFileOutput,
  type EncodingOptions,
  type ParticipantEgressRequest,
  type RoomCompositeEgressRequest,
  type StreamOutput,
  type TrackEgressRequest,
} from '@livekit/protocol';
import { newSid } from '../rtc/room-state';
import type { Registry } from '../rtc/registry';
import type { WebhookSender } from '../webhooks/sender';
import { CompositePipeline, selectedTracks, type CompositeOptions, type OutputTarget } from './composite';
import { ffmpegUnavailable } from './ffmpeg';
import { startRtmpRelay } from './rtmp-relay';
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

/** The egress requests this server runs, as EgressInfo.request names them. */
export type EgressRequest =
  | { case: 'roomComposite'; value: RoomCompositeEgressRequest }
  | { case: 'participant'; value: ParticipantEgressRequest }
  | { case: 'track'; value: TrackEgressRequest };

type Encoding = { case: 'preset'; value: EncodingOptionsPreset } | { case: 'advanced'; value: EncodingOptions };

function encodingOptions(options: Encoding | { case: undefined }) {
  const even = (n: number) => Math.max(16, Math.floor(n / 2) * 2);
  let encoding = PRESETS[EncodingOptionsPreset.H264_720P_30];
  if (options.case === 'preset' && PRESETS[options.value]) encoding = PRESETS[options.value];
  if (options.case === 'advanced') {
    const a = options.value;
    encoding = {
      width: even(a.width || encoding.width),
      height: even(a.height || encoding.height),
      fps: Math.min(60, Math.max(1, Math.round(a.framerate || encoding.fps))),
      videoKbps: a.videoBitrate || encoding.videoKbps,
    };
  }
  return encoding;
}

function compositeOptions(request: EgressRequest): CompositeOptions {
  if (request.case === 'track') {
    // One microphone, as audio alone (a video track is refused when the egress starts).
    const encoding = encodingOptions({ case: undefined });
    const only = { identity: '', trackSid: request.value.trackId };
    return { ...encoding, layout: layoutName(''), audioOnly: true, videoOnly: false, only };
  }
  if (request.case === 'participant') {
    const req = request.value;
    const sources = req.screenShare
      ? [TrackSource.SCREEN_SHARE, TrackSource.SCREEN_SHARE_AUDIO]
      : [TrackSource.CAMERA, TrackSource.MICROPHONE];
    return {
      ...encodingOptions(req.options),
      layout: layoutName('single-speaker'),
      audioOnly: false,
      videoOnly: false,
      only: { identity: req.identity, sources },
    };
  }
  const req = request.value;
  return {
    ...encodingOptions(req.options),
    layout: layoutName(req.layout),
    audioOnly: req.audioOnly,
    videoOnly: req.videoOnly,
  };
}

/** A request's outputs, whatever its kind. */
function requestedOutputs(request: EgressRequest): {
  files: { filepath: string; fileType?: EncodedFileType; upload?: string }[];
  streams: StreamOutput[];
  unsupported?: string;
} {
  if (request.case === 'track') {
    const out = request.value.output;
    if (out.case === 'websocketUrl')
      return {
        files: [],
        streams: [],
        unsupported: 'track egress to a WebSocket is not supported by the development media server',
      };
    if (out.case !== 'file') return { files: [], streams: [] };
    // Its container follows the codec: an Opus microphone is written as Ogg.
    return {
      files: [{ filepath: out.value.filepath, fileType: EncodedFileType.OGG, upload: out.value.output.case }],
      streams: [],
    };
  }
  const req = request.value;
  const legacy = request.case === 'roomComposite' ? request.value.output : { case: undefined };
  const files: EncodedFileOutput[] = [...req.fileOutputs, ...(legacy.case === 'file' ? [legacy.value] : [])];
  const streams = [...req.streamOutputs, ...(legacy.case === 'stream' ? [legacy.value] : [])];
  const unsupported =
    req.segmentOutputs.length || legacy.case === 'segments' || req.imageOutputs.length
      ? 'segmented (HLS) and image outputs are not supported by the development media server'
      : undefined;
  return {
    files: files.map((f) => ({ filepath: f.filepath, fileType: f.fileType, upload: f.output.case })),
    streams,
    unsupported,
  };
}

/** What the request asks for, or why this server cannot do it. */
function outputTargets(request: EgressRequest, options: CompositeOptions): OutputTarget[] | string {
  const { files, streams, unsupported } = requestedOutputs(request);
  if (unsupported) return unsupported;
  const urls = streams.flatMap((s) => s.urls);
  const upload = files.find((f) => f.upload)?.upload;
  if (upload) return `${upload} upload is not supported by the development media server (it writes local files)`;
  if (!files.length && !urls.length) return 'the request has no file or stream output';
  if (options.audioOnly && options.videoOnly) return 'audio_only and video_only cannot both be set';
  const bad = urls.find((u) => !/^rtmps?:\/\//.test(u));
  if (bad) return `only rtmp:// and rtmps:// stream URLs are supported, not ${redactStreamUrl(bad)}`;
  return [
    ...files.map((f): OutputTarget => {
      const ext = path.extname(f.filepath).toLowerCase();
      const ogg =
        f.fileType === EncodedFileType.OGG ||
        (f.fileType !== EncodedFileType.MP4 &&
          (ext === '.ogg' || ext === '.opus' || (ext !== '.mp4' && options.audioOnly)));
      return { kind: 'file', path: path.resolve(f.filepath), container: ogg ? 'ogg' : 'mp4' };
    }),
    ...urls.map((url): OutputTarget => ({ kind: 'stream', url })),
  ];
}

/** What a failed stream output reports, whatever the cause (unreachable, refused, not reading). */
export const STREAM_OUTPUT_FAILED = 'the destination was unreachable, refused the stream or did not keep up';

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

  /** Every stream's relay port closes with its egress (an output's own closes when its ffmpeg exits). */
  const closeRelays = (job: Job) => {
    for (const t of job.targets) if (t.kind === 'stream') t.relay?.close();
  };

  function fail(job: Job, error: string) {
    if (job.info.status >= EgressStatus.EGRESS_COMPLETE) return;
    clearInterval(job.timer);
    job.pipeline?.abort();
    closeRelays(job);
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

  /** A stream target's result: in the same order (URLs that differ only by key look alike redacted). */
  function streamResult(job: Job, target: OutputTarget) {
    const streams: OutputTarget[] = job.targets.filter((t) => t.kind === 'stream');
    return job.info.streamResults[streams.indexOf(target)];
  }

  /** Starts the pipeline once the room has media; polled, as publishers may arrive after the request. */
  function tryStart(job: Job) {
    const room = deps.registry.rooms.get(job.info.roomName);
    if (!room || job.pipeline || job.info.status !== EgressStatus.EGRESS_STARTING) return;
    const only = job.options.only;
    if (only?.trackSid) {
      // A track egress names a published track (LiveKit refuses an unknown one).
      const owner = [...room.participants.values()].find((p) => p.tracks.has(only.trackSid!));
      const track = owner?.tracks.get(only.trackSid);
      if (!owner || !track) return fail(job, `track ${only.trackSid} is not published in the room`);
      if (track.type !== TrackType.AUDIO)
        return fail(job, 'track egress of a video track is not supported by the development media server');
      only.identity = owner.identity;
    }
    const published = selectedTracks(room, only).some((p) => p.tracks.length > 0);
    if (!published) return;
    clearInterval(job.timer);
    for (const t of job.targets) if (t.kind === 'file') mkdirSync(path.dirname(t.path), { recursive: true });
    job.pipeline = new CompositePipeline(() => deps.registry.rooms.get(job.info.roomName), job.options, job.targets, {
      log: deps.log,
      onEncoderFailed: (reason) => fail(job, reason),
      onStarted() {
        if (job.info.status !== EgressStatus.EGRESS_STARTING) return; // stopped or failed meanwhile
        job.startedAt = Date.now();
        for (const s of job.info.streamResults) s.startedAt = now();
        job.info.status = EgressStatus.EGRESS_ACTIVE;
        showRecording(job.info.roomName);
        emit('egress_updated', job);
      },
      onOutputFailed(target, ffmpegReason) {
        // ffmpeg names the URL it failed on: the stream key must not travel on, even in the log.
        const key = target.kind === 'stream' ? /[^/]+$/.exec(target.url)?.[0] : undefined;
        const logged = key ? ffmpegReason.split(key).join('{sk}') : ffmpegReason;
        // A stream's reason is one text whatever ffmpeg said: "Connection refused" and "End of file"
        // would tell a closed port from an open one (a port scan through streaming).
        const reason = target.kind === 'stream' ? STREAM_OUTPUT_FAILED : ffmpegReason;
        if (target.kind === 'stream') {
          const s = streamResult(job, target);
          if (s) Object.assign(s, { status: StreamInfo_Status.FAILED, error: reason, endedAt: now() });
        }
        const what = target.kind === 'stream' ? `the stream to ${redactStreamUrl(target.url)}` : 'the file output';
        deps.log(`egress ${job.info.egressId}: ${what} failed: ${logged}`);
        const alive = job.targets.some(
          (t) => t.kind === 'file' || streamResult(job, t)?.status === StreamInfo_Status.ACTIVE,
        );
        if (!alive || target.kind === 'file') fail(job, `${what} failed: ${reason}`);
        else emit('egress_updated', job);
      },
    });
    // LiveKit's egress ends with the room; a participant's when they leave, a track's when it is unpublished.
    job.timer = setInterval(() => {
      const room = deps.registry.rooms.get(job.info.roomName);
      const person = only ? room?.participants.get(only.identity) : undefined;
      const gone = !room || (only && !person) || (only?.trackSid && !person?.tracks.get(only.trackSid)?.media);
      if (gone) void finish(job);
    }, 1000);
    job.timer.unref();
  }

  async function finish(job: Job) {
    clearInterval(job.timer);
    if (job.info.status >= EgressStatus.EGRESS_ENDING) return;
    job.info.status = EgressStatus.EGRESS_ENDING;
    showRecording(job.info.roomName);
    emit('egress_updated', job);
    if (!job.pipeline)
      return fail(
        job,
        job.options.only
          ? 'the participant published nothing to record'
          : 'nothing was published in the room to record',
      );
    // What was recorded ends now; the encoder may take a while to finish the file on a busy machine.
    const stoppedAt = Date.now();
    const results = await job.pipeline.stop();
    closeRelays(job);
    if (job.info.status !== EgressStatus.EGRESS_ENDING) return; // failed meanwhile
    const endedAt = now();
    job.startedAt ??= stoppedAt;
    const duration = BigInt(stoppedAt - job.startedAt) * 1_000_000n;
    for (const t of job.targets) {
      const s = t.kind === 'stream' ? streamResult(job, t) : undefined;
      if (t.kind !== 'stream' || s?.status !== StreamInfo_Status.ACTIVE) continue;
      // A destination that never answered was never streamed to, however long it held the connection.
      if (t.relay?.answered) Object.assign(s, { status: StreamInfo_Status.FINISHED, endedAt, duration });
      else Object.assign(s, { status: StreamInfo_Status.FAILED, error: STREAM_OUTPUT_FAILED, endedAt });
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
    async start(egress: EgressRequest, request: Record<string, unknown>): Promise<EgressInfo> {
      const info = new EgressInfo({
        egressId: newSid('EG'),
        roomName: egress.value.roomName,
        status: EgressStatus.EGRESS_STARTING,
        startedAt: now(),
        request: egress,
      });
      const options = compositeOptions(egress);
      const targets = outputTargets(egress, options);
      const job: Job = { info, request, options, targets: typeof targets === 'string' ? [] : targets };
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
      try {
        for (const t of job.targets) if (t.kind === 'stream') t.relay = await startRtmpRelay(t.url, deps.log);
      } catch (err) {
        setTimeout(() => fail(job, `no relay for the stream: ${(err as Error).message}`), 100).unref();
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
        closeRelays(job);
      }
    },
  };
}
export type Recorder = ReturnType<typeof createRecorder>;
