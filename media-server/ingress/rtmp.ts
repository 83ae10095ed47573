/**
 * RTMP ingress: each RTMP ingress gets a port of its own on which ffmpeg (the static build from
 * `@ffmpeg-installer/linux-x64`, an optional dependency) listens for one publisher at
 * `rtmp://host:port/live/{streamKey}`, transcodes to VP8 and Opus and sends each as RTP to a local
 * UDP socket here; the packets become werift tracks that the room receives like any other. When
 * the publisher stops, ffmpeg exits, the participant leaves and a new listener waits for the next
 * push (an ingress may start again).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { MediaStreamTrack, RtpPacket } from 'werift';
import type { IngressInfo } from '@livekit/protocol';
import { type FfmpegProcess, spawnFfmpeg } from '../egress/ffmpeg';
import { type IngressContext, IngressPublisher } from './publisher';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

async function udpTrack(kind: 'audio' | 'video') {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const track = new MediaStreamTrack({ kind });
  socket.on('message', (msg) => {
    try {
      track.writeRtp(RtpPacket.deSerialize(msg));
    } catch {
      // not RTP: ignored
    }
  });
  return { socket, track, port: (socket.address() as net.AddressInfo).port };
}

export function createRtmpListener(ctx: IngressContext, info: IngressInfo, opts: { host: string; port: number }) {
  let ffmpeg: FfmpegProcess | undefined;
  let closed = false;

  async function listen() {
    if (closed) return;
    const video = await udpTrack('video');
    const audio = await udpTrack('audio');
    const publisher = new IngressPublisher(info, ctx);
    // A key frame a second: there is no way to ask ffmpeg for one when a subscriber joins.
    const args = [
      ...['-listen', '1', '-i', `rtmp://${opts.host}:${opts.port}/live/${info.streamKey}`],
      ...['-map', '0:v:0', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1500k'],
      ...['-g', '30', '-keyint_min', '30', '-auto-alt-ref', '0', '-error-resilient', '1'],
      ...['-payload_type', '96', '-f', 'rtp', '-pkt_size', '1200', `rtp://127.0.0.1:${video.port}`],
      ...['-map', '0:a:0', '-c:a', 'libopus', '-ar', '48000', '-ac', '2', '-b:a', '64k'],
      ...['-payload_type', '111', '-f', 'rtp', '-pkt_size', '1200', `rtp://127.0.0.1:${audio.port}`],
    ];
    // At info level: its "Output #1" line says a push arrived and the outputs are open.
    const transcoder = spawnFfmpeg(args, { loglevel: 'info', stdio: ['ignore', 'ignore', 'pipe'] });
    ffmpeg = transcoder;
    let log = '';
    let joined = false;
    transcoder.child.stderr!.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
      // ffmpeg's listener accepts any stream name and only warns: refuse a wrong key ourselves.
      if (log.includes('Unexpected stream')) {
        ctx.log(`rtmp ingress ${info.ingressId}: a push with a wrong stream key was refused`);
        transcoder.child.kill('SIGKILL');
      } else if (!joined && /Output #1/.test(log)) {
        joined = true;
        publisher.addTrack(video.track);
        publisher.addTrack(audio.track);
      }
    });
    void transcoder.exited.then(({ code }) => {
      video.socket.close();
      audio.socket.close();
      publisher.end(code && joined && !closed ? transcoder.reason() || `ffmpeg exited ${code}` : '');
      if (ffmpeg === transcoder) ffmpeg = undefined;
      if (!closed) setTimeout(() => void listen(), 200);
    });
  }

  void listen();
  return {
    close() {
      closed = true;
      ffmpeg?.child.kill('SIGKILL');
    },
  };
}

export { freePort };
