/**
 * Egress on the development media server. A file output is recorded for real: the room's first
 * camera (or screen) track and first microphone track, as received, into a WebM file at the
 * requested path (werift's recorder; no mixing, no layout). What it cannot do it says so the way
 * LiveKit egress fails: the request is accepted, then an egress_ended webhook reports
 * EGRESS_FAILED with the reason (RTMP streaming, S3 upload, nothing published to record).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MediaRecorder } from 'werift/nonstandard';
import { EgressInfo, EgressStatus, FileInfo, TrackType, type RoomCompositeEgressRequest } from '@livekit/protocol';
import { newSid } from './room-state';
import type { Registry } from './registry';
import type { WebhookSender } from './webhooks';

interface Job {
  info: EgressInfo;
  /** The request as the API received it (JSON). */
  request: Record<string, unknown>;
  filepath?: string;
  recorder?: MediaRecorder;
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

export function createRecorder(deps: { registry: Registry; webhooks: WebhookSender; log: (msg: string) => void }) {
  const jobs = new Map<string, Job>();
  const now = () => BigInt(Date.now()) * 1_000_000n;

  /** Tells the room's clients whether any recording of it is running. */
  function showRecording(roomName: string) {
    const active = [...jobs.values()].some(
      (j) => j.info.roomName === roomName && j.recorder && j.info.status === EgressStatus.EGRESS_ACTIVE,
    );
    deps.registry.rooms.get(roomName)?.setRecording(active);
  }

  function fail(job: Job, error: string) {
    clearInterval(job.timer);
    job.info.status = EgressStatus.EGRESS_FAILED;
    job.info.error = error;
    job.info.endedAt = now();
    showRecording(job.info.roomName);
    void deps.webhooks.emit({ event: 'egress_ended', egressInfo: job.info });
  }

  /** Starts recording once the room has media; polled, as publishers may arrive after the request. */
  function tryStart(job: Job) {
    const room = deps.registry.rooms.get(job.info.roomName);
    if (!room || job.recorder) return;
    const tracks = [...room.participants.values()]
      .flatMap((p) => [...p.tracks.values()])
      .filter((t) => t.media && !t.media.stopped);
    const video = tracks.find((t) => t.type === TrackType.VIDEO);
    const audio = tracks.find((t) => t.type === TrackType.AUDIO);
    const chosen = [video, audio].filter((t) => t !== undefined);
    if (!chosen.length) return;
    clearInterval(job.timer);
    mkdirSync(path.dirname(job.filepath!), { recursive: true });
    job.recorder = new MediaRecorder({
      path: job.filepath!,
      tracks: chosen.map((t) => t.media!),
      width: video?.width || 640,
      height: video?.height || 480,
    });
    job.recorder.onError.subscribe((err) => deps.log(`egress ${job.info.egressId}: ${err.message}`));
    video?.requestKeyFrame?.();
    job.startedAt = Date.now();
    job.info.status = EgressStatus.EGRESS_ACTIVE;
    showRecording(job.info.roomName);
    void deps.webhooks.emit({ event: 'egress_updated', egressInfo: job.info });
  }

  return {
    list: () => [...jobs.values()].map((j) => j.info),
    jobs: () => [...jobs.values()].map(({ info, request }) => ({ info, request })),
    async start(req: RoomCompositeEgressRequest, request: Record<string, unknown>): Promise<EgressInfo> {
      const info = new EgressInfo({
        egressId: newSid('EG'),
        roomName: req.roomName,
        status: EgressStatus.EGRESS_STARTING,
        startedAt: now(),
      });
      const job: Job = { info, request };
      jobs.set(info.egressId, job);
      const file = req.fileOutputs[0] ?? (req.output.case === 'file' ? req.output.value : undefined);
      void deps.webhooks.emit({ event: 'egress_started', egressInfo: info });
      if (req.streamOutputs.length || req.output.case === 'stream') {
        setTimeout(() => fail(job, 'RTMP streaming is not supported by the development media server'), 100).unref();
      } else if (!file) {
        setTimeout(() => fail(job, 'only file outputs are supported by the development media server'), 100).unref();
      } else if (file.output.case) {
        setTimeout(
          () => fail(job, `${file.output.case} upload is not supported by the development media server`),
          100,
        ).unref();
      } else {
        job.filepath = path.resolve(file.filepath);
        tryStart(job);
        if (!job.recorder) {
          job.timer = setInterval(() => tryStart(job), 500);
          job.timer.unref();
        }
      }
      return info;
    },
    async stop(egressId: string): Promise<EgressInfo> {
      const job = jobs.get(egressId);
      if (!job) throw Object.assign(new Error('egress not found'), { status: 404, code: 'not_found' });
      if (job.info.status >= EgressStatus.EGRESS_COMPLETE) return job.info;
      clearInterval(job.timer);
      job.info.status = EgressStatus.EGRESS_ENDING;
      showRecording(job.info.roomName);
      const ending = new EgressInfo(job.info);
      void (async () => {
        if (!job.recorder) return fail(job, 'nothing was published in the room to record');
        await job.recorder.stop().catch((err: Error) => deps.log(`egress ${egressId} stop: ${err.message}`));
        const size = (() => {
          try {
            return statSync(job.filepath!).size;
          } catch {
            return 0;
          }
        })();
        if (!size) return fail(job, 'the recording is empty');
        job.info.status = EgressStatus.EGRESS_COMPLETE;
        job.info.endedAt = now();
        showRecording(job.info.roomName);
        job.info.fileResults = [
          new FileInfo({
            filename: job.filepath!,
            size: BigInt(size),
            duration: BigInt(Date.now() - job.startedAt!) * 1_000_000n,
            startedAt: BigInt(job.startedAt!) * 1_000_000n,
            endedAt: now(),
          }),
        ];
        void deps.webhooks.emit({ event: 'egress_ended', egressInfo: job.info });
      })();
      return ending;
    },
  };
}
export type Recorder = ReturnType<typeof createRecorder>;
