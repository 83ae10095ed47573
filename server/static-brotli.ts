import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

/**
 * The build's JavaScript and CSS as Brotli, from files compressed once at build time
 * (scripts/precompress.ts). `next start` compresses on the fly with gzip only; Brotli at its
 * highest quality makes the call's JavaScript about a sixth smaller on the wire, which a CDN in
 * front would also do, but the embedded default has none. Everything else, and any browser that
 * does not accept Brotli, goes to Next as before.
 */
export const PRECOMPRESSED_EXTENSIONS = ['.js', '.css'] as const;

const CONTENT_TYPES: Record<(typeof PRECOMPRESSED_EXTENSIONS)[number], string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
};

/** Does the request's Accept-Encoding allow br (present, and not with q=0)? */
export function acceptsBrotli(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'br') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * A request handler for `/_next/static/…` that answers from `<distDir>/static/…​.br` when the
 * browser accepts Brotli and that file exists; it returns false (the request is Next's) otherwise.
 * The files are content-hashed and never change under a build, so the lookup is remembered.
 */
export function brotliStaticAssets(distDir: string) {
  const root = path.resolve(distDir, 'static');
  const sizes = new Map<string, number | null>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = existsSync(file) ? statSync(file).size : null;
      sizes.set(file, size);
    }
    return size;
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const pathname = (req.url ?? '').split('?')[0];
    if (!pathname.startsWith('/_next/static/')) return false;
    const ext = path.extname(pathname) as (typeof PRECOMPRESSED_EXTENSIONS)[number];
    if (!PRECOMPRESSED_EXTENSIONS.includes(ext) || !acceptsBrotli(req.headers['accept-encoding'])) return false;
    let relative: string;
    try {
      relative = decodeURIComponent(pathname.slice('/_next/static/'.length));
    } catch {
      return false;
    }
    const file = path.resolve(root, `${relative}.br`);
    if (!file.startsWith(`${root}${path.sep}`)) return false;
    const size = sizeOf(file);
    if (size === null) return false;
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[ext],
      'Content-Encoding': 'br',
      'Content-Length': size,
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).on('error', () => res.destroy()).pipe(res);
    return true;
  };
}
