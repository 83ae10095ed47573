import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { acceptsBrotli, brotliStaticAssets } from '@/server/static-brotli';

/**
 * The app server's Brotli copies of the build's scripts and styles (server/static-brotli.ts), over
 * real HTTP: sent where the browser accepts br and a copy exists; anything else is left to Next
 * (here a handler answering 299, so a fall-through is seen).
 */
describe('the build’s assets as Brotli', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'convene-brotli-'));
  const script = 'console.log("the call");'.repeat(50);
  let base = '';
  let server: http.Server;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'static/chunks'), { recursive: true });
    writeFileSync(path.join(dist, 'static/chunks/a.js'), script);
    writeFileSync(path.join(dist, 'static/chunks/a.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'static/chunks/b.js'), script); // no Brotli copy
    writeFileSync(path.join(dist, 'secret.js.br'), brotliCompressSync('outside static'));
    const brotli = brotliStaticAssets(dist);
    server = http.createServer((req, res) => {
      if (!brotli(req, res)) res.writeHead(299).end('next');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (p: string, acceptEncoding: string, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${base}${p}`, { method, headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('sends the Brotli copy, with its type, length, encoding and caching', async () => {
    const res = await get('/_next/static/chunks/a.js?v=1', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
    const head = await get('/_next/static/chunks/a.js', 'br', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('leaves to Next a browser without br, a file without a copy, other paths and methods, and escapes', async () => {
    for (const [p, encoding, method] of [
      ['/_next/static/chunks/a.js', 'gzip, deflate'],
      ['/_next/static/chunks/a.js', 'gzip, br;q=0'],
      ['/_next/static/chunks/b.js', 'br'],
      ['/_next/static/chunks/missing.js', 'br'],
      ['/_next/static/chunks/a.js', 'br', 'POST'],
      ['/join', 'br'],
      ['/_next/static/../secret.js', 'br'],
      ['/_next/static/%2e%2e/secret.js', 'br'],
      ['/_next/static/%E0%A4%A.js', 'br'],
    ] as const)
      expect((await get(p, encoding, method)).status, `${method ?? 'GET'} ${p} (${encoding})`).toBe(299);
  });

  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(acceptsBrotli('br')).toBe(true);
    expect(acceptsBrotli('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsBrotli('BR;q=0.5')).toBe(true);
    expect(acceptsBrotli('br;q=0')).toBe(false);
    expect(acceptsBrotli('gzip')).toBe(false);
    expect(acceptsBrotli('brotli')).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});
