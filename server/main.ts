/**
 * The app's production server: Next's request handler (the build in NEXT_DIST_DIR or .next) behind
 * a node:http server that sends the build's JavaScript and CSS as Brotli where the browser takes
 * it (server/static-brotli.ts). Everything `next start` did is kept: the port and host
 * (`-p`, `-H`, or PORT and HOSTNAME), idle keep-alive connections held 65 s, and on SIGTERM or
 * SIGINT no new connections while in-flight requests finish, then Next closes and the process
 * exits (130/143) — the app's own shutdown (instrumentation.ts) runs before that exit.
 *
 * Run with `node --import tsx server/main.ts` (scripts/server-flags.ts builds the command).
 */
import http from 'node:http';
import path from 'node:path';
import { brotliStaticAssets } from './static-brotli';

/**
 * Idle keep-alive connections are held 65 s (Node's default is 5 s): a client or load balancer that
 * reuses a connection just as the server drops it gets a reset (ECONNRESET) for a request the
 * server never read. Longer than the usual idle timeouts of what sits in front (60 s for AWS's and
 * Google's load balancers, 4–5 s for Node's own clients), so the closing is theirs.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function option(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function main() {
  const started = Date.now();
  (process.env as Record<string, string>).NODE_ENV ??= 'production';
  const port = Number(option('-p') ?? process.env.PORT ?? 3000);
  const hostname = option('-H') ?? process.env.HOSTNAME ?? '0.0.0.0';
  const dir = path.resolve(import.meta.dirname, '..');
  const { default: next } = await import('next');
  const app = next({ dev: false, dir, hostname, port });
  const handle = app.getRequestHandler();
  const brotli = brotliStaticAssets(path.join(dir, process.env.NEXT_DIST_DIR || '.next'));

  const server = http.createServer((req, res) => {
    if (brotli(req, res)) return;
    handle(req, res).catch((err: unknown) => {
      console.error(`Failed to handle request for ${req.url}`, err);
      if (!res.headersSent) res.writeHead(500).end('Internal Server Error');
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  await app.prepare();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  console.log(`▸ Ready in ${Date.now() - started} ms on http://${hostname}:${port}`);

  let stopping = false;
  const stop = (signal: 'SIGINT' | 'SIGTERM') => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close().catch((err: unknown) => console.error(err));
      process.exit(signal === 'SIGINT' ? 130 : 143);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('Failed to start server', err);
  process.exit(1);
});
