/**
 * One received track decoded for the compositor: its RTP, as the forwarding unit receives it, is
 * sent over loopback UDP to an ffmpeg that reads it through an SDP description (ffmpeg does the
 * depacketizing and reordering) and writes raw frames to its stdout — video as I420 at a fixed
 * size (scaled and letter-boxed, so a publisher changing resolution never changes the frame
 * size), audio as 48 kHz mono s16le PCM.
 */
import dgram from 'node:dgram';
import type { DevTrack } from '../rtc/room-state';
import { spawnFfmpeg, type FfmpegProcess } from './ffmpeg';

export const SAMPLE_RATE = 48_000;
/** At most this much decoded audio waits for the mixer; older samples are dropped (bounded latency). */
const MAX_QUEUED_SAMPLES = SAMPLE_RATE / 2;

/** A free even UDP port whose successor is free too (ffmpeg's RTP input binds both, RTP and RTCP). */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const rtp = dgram.createSocket('udp4');
    const rtcp = dgram.createSocket('udp4');
    rtp.on('error', () => undefined);
    rtcp.on('error', () => undefined);
    try {
      await new Promise<void>((resolve, reject) => rtp.once('error', reject).bind(0, '127.0.0.1', resolve));
      const port = rtp.address().port;
      if (port % 2 === 0 && port < 65535) {
        await new Promise<void>((resolve, reject) => rtcp.once('error', reject).bind(port + 1, '127.0.0.1', resolve));
        return port;
      }
    } catch {
      // taken: try another
    } finally {
      rtp.close();
      try {
        rtcp.close();
      } catch {
        // never bound
      }
    }
  }
  throw new Error('no free UDP port pair on 127.0.0.1 for the egress decoder');
}

function sdpFor(track: DevTrack, port: number, payloadType: number) {
  const video = track.media!.kind === 'video';
  return [
    'v=0',
    'o=- 0 0 IN IP4 127.0.0.1',
    's=convene-egress',
    'c=IN IP4 127.0.0.1',
    't=0 0',
    `m=${video ? 'video' : 'audio'} ${port} RTP/AVP ${payloadType}`,
    video ? `a=rtpmap:${payloadType} VP8/90000` : `a=rtpmap:${payloadType} opus/48000/2`,
    '',
  ].join('\r\n');
}

export interface TrackDecoder {
  readonly track: DevTrack;
  /** Video: the latest whole frame (I420, width × height), once one has been decoded. */
  latestFrame?: Buffer;
  readonly width: number;
  readonly height: number;
  /** Audio: takes up to `samples` decoded samples (fewer when fewer arrived). */
  takeSamples(samples: number): Int16Array;
  /** The ffmpeg child, for CPU accounting. */
  readonly process: FfmpegProcess;
  close(): void;
}

export async function startTrackDecoder(
  track: DevTrack,
  size: { width: number; height: number },
  log: (msg: string) => void,
): Promise<TrackDecoder> {
  const media = track.media!;
  const video = media.kind === 'video';
  const port = await freePortPair();
  const payloadType = media.codec?.payloadType ?? (video ? 96 : 111);
  const width = size.width - (size.width % 2);
  const height = size.height - (size.height % 2);
  const output = video
    ? [
        '-an',
        // Each decoded frame once, as it comes: the compositor takes the latest (no duplicated or dropped frames).
        '-vsync',
        'passthrough',
        '-vf',
        `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,format=yuv420p`,
        '-f',
        'rawvideo',
        'pipe:1',
      ]
    : ['-vn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1'];
  const ffmpeg = spawnFfmpeg([
    '-protocol_whitelist',
    'pipe,udp,rtp',
    '-fflags',
    'nobuffer',
    '-probesize',
    '32768',
    '-analyzeduration',
    '0',
    '-f',
    'sdp',
    '-i',
    'pipe:0',
    ...output,
  ]);
  ffmpeg.child.stdin!.end(sdpFor(track, port, payloadType));

  const socket = dgram.createSocket('udp4');
  socket.on('error', (err) => log(`egress decoder socket: ${err.message}`));
  const rtp = media.onReceiveRtp.subscribe((packet) => socket.send(packet.serialize(), port, '127.0.0.1'));

  const frameBytes = (width * height * 3) / 2;
  let lastFrameAt = 0;
  let closed = false;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let audio: Buffer = Buffer.alloc(0);
  const decoder: TrackDecoder = {
    track,
    width,
    height,
    process: ffmpeg,
    takeSamples(samples) {
      const bytes = Math.min(samples * 2, audio.length - (audio.length % 2));
      const out = new Int16Array(bytes / 2);
      for (let i = 0; i < out.length; i++) out[i] = audio.readInt16LE(i * 2);
      audio = audio.subarray(bytes);
      return out;
    },
    close() {
      if (closed) return;
      closed = true;
      rtp.unSubscribe();
      clearInterval(keyFrames);
      socket.close();
      ffmpeg.child.kill('SIGKILL');
    },
  };
  ffmpeg.child.stdout!.on('data', (chunk: Buffer) => {
    if (!video) {
      audio = audio.length ? Buffer.concat([audio, chunk]) : chunk;
      if (audio.length > MAX_QUEUED_SAMPLES * 2) audio = audio.subarray(audio.length - MAX_QUEUED_SAMPLES * 2);
      return;
    }
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes < frameBytes) return;
    const all = Buffer.concat(pending);
    const whole = Math.floor(all.length / frameBytes) * frameBytes;
    decoder.latestFrame = all.subarray(whole - frameBytes, whole);
    lastFrameAt = Date.now();
    pending = [all.subarray(whole)];
    pendingBytes = all.length - whole;
  });
  // A decoder starts at a key frame, and after a lost packet waits for the next one: ask the
  // publisher for one whenever no frame came out for a while (as a subscriber's PLI would).
  const keyFrames = setInterval(() => {
    if (!video) clearInterval(keyFrames);
    else if (Date.now() - lastFrameAt > 1000) track.requestKeyFrame?.();
  }, 250);
  keyFrames.unref();
  void ffmpeg.exited.then(({ code }) => {
    if (code) log(`egress decoder for ${track.sid} exited ${code}: ${ffmpeg.reason()}`);
  });
  return decoder;
}
