/**
 * The way an egress's ffmpeg reaches an RTMP destination without the stream key on its command
 * line (the process list shows it to anyone on the machine): ffmpeg publishes to a loopback port
 * here under a random stand-in name of the key's length, and Node relays the connection to the
 * destination (over TLS for rtmps://), writing the real key over the stand-in in the commands that
 * name the stream (releaseStream, FCPublish, publish) — the same length, so no RTMP length field
 * changes. The relay keeps nothing queued: it passes TCP backpressure on to ffmpeg, whose I/O
 * timeout then fails a destination that does not read.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';

export const RTMP_RELAY_LIMITS = {
  /** Connecting to the destination (TCP and TLS). */
  connectWithinMs: 10_000,
  /** The commands that name the stream come within this much of the connection's start. */
  commandBytes: 64 * 1024,
};

/** C0 + C1 + C2: ffmpeg's handshake (RTMP spec §5.2), random bytes relayed as they come. */
const HANDSHAKE_BYTES = 1 + 1536 + 1536;
/** AMF0 string "publish": the last command that names the stream. */
const PUBLISH = Buffer.concat([Buffer.from([0x02, 0x00, 0x07]), Buffer.from('publish')]);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** What ffmpeg is given instead of the URL: a loopback URL and the destination's tcUrl. */
export interface RtmpRelay {
  /** ffmpeg's arguments for this output (before `-f flv` and the URL). */
  args: string[];
  url: string;
  /** Whether the destination ever sent a byte (an RTMP server answers the handshake at once). */
  readonly answered: boolean;
  close(): void;
}

/** The destination's parts: where to connect, the tcUrl (no key) and the key (the last path segment). */
function parse(url: string) {
  const slash = url.lastIndexOf('/');
  const key = url.slice(slash + 1);
  const base = url.slice(0, slash);
  const parsed = new URL(base);
  const secure = parsed.protocol === 'rtmps:';
  return {
    key,
    base,
    secure,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port) || (secure ? 443 : 1935),
    app: parsed.pathname.slice(1),
  };
}

/** How many bytes at the end of `bytes` could start `pattern` (held back until the rest comes). */
function partialAtEnd(bytes: Buffer, pattern: Buffer) {
  for (let k = Math.min(pattern.length - 1, bytes.length); k > 0; k--)
    if (bytes.subarray(bytes.length - k).equals(pattern.subarray(0, k))) return k;
  return 0;
}

/** Starts relaying to the rtmp(s):// `url`: resolves once the loopback port listens. */
export async function startRtmpRelay(url: string, log: (msg: string) => void): Promise<RtmpRelay> {
  const dest = parse(url);
  const keyBytes = Buffer.from(dest.key);
  const standIn = Buffer.from(Array.from(randomBytes(keyBytes.length), (b) => ALPHABET[b % ALPHABET.length]).join(''));
  // As AMF0 strings: a marker and a 16-bit length before the name.
  const header = Buffer.from([0x02, keyBytes.length >> 8, keyBytes.length & 0xff]);
  const from = Buffer.concat([header, standIn]);
  const to = Buffer.concat([header, keyBytes]);
  const open = new Set<net.Socket>();
  let answered = false;

  const server = net.createServer((ffmpeg) => {
    server.close(); // one connection: ffmpeg's
    open.add(ffmpeg);
    ffmpeg.on('error', () => undefined);
    ffmpeg.pause();
    const options = { host: dest.host, port: dest.port };
    const upstream = dest.secure
      ? tls.connect({ ...options, servername: net.isIP(dest.host) ? undefined : dest.host })
      : net.connect(options);
    open.add(upstream);
    upstream.on('error', (err) => {
      log(`rtmp relay to ${dest.base}/{sk}: ${err.message}`);
      ffmpeg.destroy();
    });
    upstream.setTimeout(RTMP_RELAY_LIMITS.connectWithinMs, () => upstream.destroy(new Error('connection timed out')));
    upstream.once('data', () => (answered = true));
    upstream.once(dest.secure ? 'secureConnect' : 'connect', () => {
      upstream.setTimeout(0);
      upstream.pipe(ffmpeg);
      ffmpeg.resume();
    });
    upstream.once('close', () => ffmpeg.destroy());
    ffmpeg.once('close', () => upstream.destroy());

    // Until the publish command has passed, the stand-in is replaced; then bytes pass untouched.
    let pending = Buffer.alloc(0);
    let seen = 0;
    let flush: NodeJS.Timeout | undefined;
    const send = (bytes: Buffer) => bytes.length && upstream.write(bytes);
    const rewrite = (chunk: Buffer, force = false) => {
      clearTimeout(flush);
      pending = Buffer.concat([pending, chunk]);
      const afterHandshake = Math.max(0, HANDSHAKE_BYTES - seen);
      for (let at = pending.indexOf(from, afterHandshake); at >= 0; at = pending.indexOf(from, at + 1))
        to.copy(pending, at);
      const published = pending.indexOf(PUBLISH, afterHandshake);
      const done =
        (published >= 0 && pending.indexOf(to, published) >= 0) ||
        seen + pending.length > RTMP_RELAY_LIMITS.commandBytes;
      if (done) {
        ffmpeg.off('data', rewrite);
        send(pending);
        pending = Buffer.alloc(0);
        ffmpeg.pipe(upstream);
        return;
      }
      // Past the handshake, a tail that may begin the stand-in waits for what follows (200 ms at most).
      const held = !force && seen + pending.length > HANDSHAKE_BYTES ? partialAtEnd(pending, from) : 0;
      const ready = pending.subarray(0, pending.length - held);
      send(ready);
      seen += ready.length;
      pending = pending.subarray(ready.length);
      if (held) flush = setTimeout(() => rewrite(Buffer.alloc(0), true), 200);
    };
    ffmpeg.on('data', rewrite);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', (err) => log(`rtmp relay to ${dest.base}/{sk}: ${err.message}`));
  const { port } = server.address() as net.AddressInfo;
  return {
    // The tcUrl the destination sees is its own (no key in it), as ffmpeg would have sent it.
    args: ['-rtmp_tcurl', dest.base, '-rtmp_app', dest.app, '-rtmp_playpath', standIn.toString()],
    url: `rtmp://127.0.0.1:${port}/${dest.app}/${standIn.toString()}`,
    get answered() {
      return answered;
    },
    close() {
      server.close();
      for (const socket of open) socket.destroy();
    },
  };
}
