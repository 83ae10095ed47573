/**
 * One received track decoded for the compositor: its RTP, as the forwarding unit receives it, is
 * sent over loopback UDP to an ffmpeg that reads it through an SDP description (ffmpeg does the
 * depacketizing and reordering) and writes raw frames to its stdout — video as I420 at a fixed
 * size (scaled and letter-boxed, so a publisher changing resolution never changes the frame
 * size), audio as 48 kHz mono s16le PCM.
 */
import dgram from 'node:dgram';
import type { RTCRtpCodecParameters, RtpPacket } from 'werift';
import type { DevTrack } from '../rtc/room-state';
import { codecsOf, primaryCodec } from '../sfu/codecs';
import { av1ToIvf } from './av1-ivf';
import { vp9ToIvf } from './vp9-ivf';
import { spawnFfmpeg, type FfmpegProcess } from './ffmpeg';

export const SAMPLE_RATE = 48_000;
/** At most this much decoded audio waits for the mixer; older samples are dropped (bounded latency). */
const MAX_QUEUED_SAMPLES = SAMPLE_RATE / 2;
/** At most this much AV1 waits for its decoder; what comes beyond it is dropped. */
const MAX_QUEUED_IVF_BYTES = 4 * 1024 * 1024;

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

/** The SDP ffmpeg reads a track's RTP with: its codec as the publisher's section was answered. */
function sdpFor(codec: RTCRtpCodecParameters, kind: string, port: number) {
  const [, name] = codec.mimeType.split('/');
  return [
    'v=0',
    'o=- 0 0 IN IP4 127.0.0.1',
    's=convene-egress',
    'c=IN IP4 127.0.0.1',
    't=0 0',
    `m=${kind} ${port} RTP/AVP ${codec.payloadType}`,
    `a=rtpmap:${codec.payloadType} ${name}/${codec.clockRate}${codec.channels ? `/${codec.channels}` : ''}`,
    ...(codec.parameters ? [`a=fmtp:${codec.payloadType} ${codec.parameters}`] : []),
    '',
  ].join('\r\n');
}

/**
 * The codecs whose RTP is put back into frames here and given to ffmpeg as IVF, and the decoder
 * that reads them: the static ffmpeg has no AV1 RTP depacketizer (it decodes AV1 with libaom), and
 * its VP9 one reads one spatial layer only, while livekit-client sends VP9 as SVC — which libvpx
 * decodes, and ffmpeg's own VP9 decoder does not ("Not all references are available").
 */
const IVF_INPUTS: Partial<Record<string, { depacketize: typeof av1ToIvf; decoder: string }>> = {
  'video/av1': { depacketize: av1ToIvf, decoder: 'libaom-av1' },
  'video/vp9': { depacketize: vp9ToIvf, decoder: 'libvpx-vp9' },
};

/**
 * Why a track's codec cannot be decoded here, or undefined when it can: the static ffmpeg reads
 * VP8, H.264 and Opus from RTP, VP9 and AV1 from IVF (IVF_INPUTS).
 */
export function undecodable(codec: RTCRtpCodecParameters | undefined): string | undefined {
  const mime = codec?.mimeType.toLowerCase();
  if (mime && ['video/vp8', 'video/h264', 'video/vp9', 'video/av1', 'audio/opus'].includes(mime)) return undefined;
  return `the egress cannot decode ${codec?.mimeType ?? 'a track of unknown codec'}`;
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
  // The codec it is sent in (werift's media.codec is the first both sides listed, not the one answered).
  const codec = primaryCodec(codecsOf(track));
  const reason = undecodable(codec);
  if (!codec || reason) throw new Error(reason);
  const ivf = IVF_INPUTS[codec.mimeType.toLowerCase()];
  const port = ivf ? 0 : await freePortPair();
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
  const input = ivf
    ? ['-f', 'ivf', '-c:v', ivf.decoder, '-i', 'pipe:0']
    : ['-protocol_whitelist', 'pipe,udp,rtp', '-f', 'sdp', '-i', 'pipe:0'];
  const ffmpeg = spawnFfmpeg([
    '-fflags',
    'nobuffer',
    '-probesize',
    '32768',
    '-analyzeduration',
    '0',
    ...input,
    ...output,
  ]);

  const socket = dgram.createSocket('udp4');
  socket.on('error', (err) => log(`egress decoder socket: ${err.message}`));
  let send: (packet: RtpPacket) => void;
  if (ivf) {
    const stdin = ffmpeg.child.stdin!;
    stdin.on('error', () => undefined); // ffmpeg gone: its exit is reported below
    // A decoder that falls behind loses frames, not memory (it asks for a key frame below).
    const depacketize = ivf.depacketize(
      (chunk) => {
        if (stdin.writable && stdin.writableLength < MAX_QUEUED_IVF_BYTES) stdin.write(chunk);
      },
      { width, height },
    );
    send = ({ header, payload }) => depacketize({ ...header, payload });
  } else {
    ffmpeg.child.stdin!.end(sdpFor(codec, media.kind, port));
    send = (packet) => socket.send(packet.serialize(), port, '127.0.0.1');
  }
  const rtp = media.onReceiveRtp.subscribe((packet) => send(packet));

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
