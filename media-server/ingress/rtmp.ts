/**
 * RTMP ingress: each RTMP ingress gets a port of its own, `rtmp://host:port/live/{streamKey}`, on
 * which Node listens — an idle ingress costs one listening socket, no process. A publisher's
 * connection starts an ffmpeg (the static build from `@ffmpeg-installer/linux-x64`, an optional
 * dependency) listening on a random loopback port, and Node relays the connection to it. ffmpeg
 * transcodes to VP8 and Opus and sends each as RTP to a local UDP socket here; the packets become
 * werift tracks that the room receives like any other. When the publisher stops, ffmpeg exits, the
 * participant leaves and the ingress is idle again (it may start again).
 *
 * The stream key is never on ffmpeg's command line (the process list shows it to anyone on the
 * machine): ffmpeg listens for any stream name, and Node reads the name from the publisher's RTMP
 * `publish` command before relaying that command, refusing the connection when it is not the key.
 * One publisher per ingress at a time; one that has not published the right key within
 * RTMP_INGRESS_LIMITS.publishWithinMs, or sends more than RTMP_INGRESS_LIMITS.bytesBeforePublish
 * before it, is cut off with its ffmpeg.
 */
import { timingSafeEqual } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { MediaStreamTrack, RtpPacket } from 'werift';
import type { IngressInfo } from '@livekit/protocol';
import { type FfmpegProcess, spawnFfmpeg } from '../egress/ffmpeg';
import { type IngressContext, IngressPublisher } from './publisher';

export const RTMP_INGRESS_LIMITS = {
  /** From the TCP connection to a `publish` with the right key (an encoder takes well under 1 s). */
  publishWithinMs: 10_000,
  /** What a publisher may send before its `publish` command: the handshake and a few commands, ~4 KB. */
  bytesBeforePublish: 64 * 1024,
  /** How long ffmpeg may take to listen on its loopback port. */
  ffmpegListenWithinMs: 5_000,
};

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

/** AMF0 string "publish": what starts the command that names the stream (RTMP spec §7.2.2.6). */
const PUBLISH = Buffer.concat([Buffer.from([0x02, 0x00, 0x07]), Buffer.from('publish')]);

/** C0 + C1 + C2: the client's handshake (RTMP spec §5.2), random bytes relayed as they come. */
const HANDSHAKE_BYTES = 1 + 1536 + 1536;

/** How many bytes at the end of `bytes` could be the start of a "publish" not complete yet. */
function heldBack(bytes: Buffer) {
  for (let k = Math.min(PUBLISH.length - 1, bytes.length); k > 0; k--)
    if (bytes.subarray(bytes.length - k).equals(PUBLISH.subarray(0, k))) return k;
  return 0;
}

/**
 * The stream name of the `publish` command in `bytes` (the publisher's stream from its first byte,
 * searched from `from`): `undefined` while it has not fully arrived, `null` when the command is not
 * as RTMP writes it. After "publish": the transaction id (AMF0 number), null, then the name (AMF0
 * string).
 */
export function publishedStreamName(bytes: Buffer, from = 0): { name: string; at: number } | null | undefined {
  const at = bytes.indexOf(PUBLISH, from);
  if (at < 0) return undefined;
  let i = at + PUBLISH.length;
  if (bytes.length < i + 13) return undefined;
  if (bytes[i] !== 0x00 || bytes[i + 9] !== 0x05 || bytes[i + 10] !== 0x02) return null;
  i += 11;
  const length = bytes.readUInt16BE(i);
  if (bytes.length < i + 2 + length) return undefined;
  return { name: bytes.subarray(i + 2, i + 2 + length).toString('utf8'), at };
}

const sameKey = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Connects to ffmpeg's loopback listener once it listens. */
async function connectWhenListening(port: number, exited: () => boolean) {
  const deadline = Date.now() + RTMP_INGRESS_LIMITS.ffmpegListenWithinMs;
  for (;;) {
    const socket = await new Promise<net.Socket | undefined>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => resolve(s));
      s.once('error', () => resolve(undefined));
    });
    if (socket) return socket;
    if (exited() || Date.now() > deadline) throw new Error('the transcoder did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function createRtmpListener(ctx: IngressContext, info: IngressInfo, host: string) {
  let closed = false;
  let active: { publisher: net.Socket; ffmpeg?: FfmpegProcess } | undefined;

  async function relay(publisher: net.Socket) {
    active = { publisher };
    const current = active;
    publisher.pause();
    publisher.on('error', () => undefined);
    const refuse = (why: string) => {
      ctx.log(`rtmp ingress ${info.ingressId}: ${why}`);
      publisher.destroy();
      current.ffmpeg?.child.kill('SIGKILL');
    };
    const deadline = setTimeout(
      () => refuse('no publish with the stream key in time'),
      RTMP_INGRESS_LIMITS.publishWithinMs,
    );
    deadline.unref();
    const video = await udpTrack('video');
    const audio = await udpTrack('audio');
    const port = await freePort();
    const session = new IngressPublisher(info, ctx);
    // A key frame a second: there is no way to ask ffmpeg for one when a subscriber joins.
    const args = [
      ...['-listen', '1', '-i', `rtmp://127.0.0.1:${port}/live/in`],
      ...['-map', '0:v:0', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1500k'],
      ...['-g', '30', '-keyint_min', '30', '-auto-alt-ref', '0', '-error-resilient', '1'],
      ...['-payload_type', '96', '-f', 'rtp', '-pkt_size', '1200', `rtp://127.0.0.1:${video.port}`],
      ...['-map', '0:a:0', '-c:a', 'libopus', '-ar', '48000', '-ac', '2', '-b:a', '64k'],
      ...['-payload_type', '111', '-f', 'rtp', '-pkt_size', '1200', `rtp://127.0.0.1:${audio.port}`],
    ];
    // At info level: its "Output #1" line says a push arrived and the outputs are open.
    const transcoder = spawnFfmpeg(args, { loglevel: 'info', stdio: ['ignore', 'ignore', 'pipe'] });
    current.ffmpeg = transcoder;
    let exited = false;
    let log = '';
    let joined = false;
    transcoder.child.stderr!.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
      if (!joined && /Output #1/.test(log)) {
        joined = true;
        session.addTrack(video.track);
        session.addTrack(audio.track);
      }
    });
    void transcoder.exited.then(({ code }) => {
      exited = true;
      clearTimeout(deadline);
      publisher.destroy();
      video.socket.close();
      audio.socket.close();
      // ffmpeg warns with the name it was sent ("Unexpected stream …"): never in a reason.
      const reason = (transcoder.reason() || `ffmpeg exited ${code}`).split(info.streamKey).join('{sk}');
      session.end(code && joined && !closed ? reason : '');
      if (active === current) active = undefined;
    });
    if (publisher.destroyed) return void transcoder.child.kill('SIGKILL');
    let local: net.Socket;
    try {
      local = await connectWhenListening(port, () => exited);
    } catch (err) {
      return refuse((err as Error).message);
    }
    local.on('error', () => undefined);
    if (publisher.destroyed) {
      local.destroy();
      return void transcoder.child.kill('SIGKILL');
    }
    local.once('close', () => publisher.destroy());
    publisher.once('close', () => {
      local.destroy();
      // A publisher gone before media flowed leaves ffmpeg waiting: it goes with them.
      if (!joined) transcoder.child.kill('SIGKILL');
    });
    local.pipe(publisher);
    // Until its publish command names the key, what the publisher sends is relayed only up to that command.
    let pending = Buffer.alloc(0);
    let relayed = 0;
    const gate = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length > RTMP_INGRESS_LIMITS.bytesBeforePublish) return refuse('too much data before publish');
      const found = publishedStreamName(pending, HANDSHAKE_BYTES);
      if (found === null) return refuse('a malformed publish command');
      if (found === undefined) {
        // Everything before a possible start of the command may go on (the handshake always).
        const safe = Math.max(HANDSHAKE_BYTES, relayed, pending.length - heldBack(pending));
        const start = pending.indexOf(PUBLISH, HANDSHAKE_BYTES);
        const upTo = Math.min(pending.length, start >= 0 ? start : safe);
        if (upTo > relayed) local.write(pending.subarray(relayed, upTo));
        relayed = Math.max(relayed, upTo);
        return;
      }
      if (!sameKey(found.name, info.streamKey)) return refuse('a push with a wrong stream key was refused');
      clearTimeout(deadline);
      publisher.off('data', gate);
      local.write(pending.subarray(relayed));
      pending = Buffer.alloc(0);
      publisher.pipe(local);
    };
    publisher.on('data', gate);
    publisher.resume();
  }

  const server = net.createServer((publisher) => {
    // One publisher at a time, as LiveKit's ingress: a second is refused while one streams.
    if (closed || active) return void publisher.destroy();
    relay(publisher).catch((err: unknown) => {
      ctx.log(`rtmp ingress ${info.ingressId}: ${(err as Error).message}`);
      publisher.destroy();
      active = undefined;
    });
  });
  server.on('error', (err) => ctx.log(`rtmp ingress ${info.ingressId}: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close() {
      closed = true;
      server.close();
      active?.publisher.destroy();
      active?.ffmpeg?.child.kill('SIGKILL');
    },
  };
}

export { freePort };
