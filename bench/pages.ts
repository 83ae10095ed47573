/** The pages part of `npm run bench` (BENCH_PARTS=pages): first-load JavaScript of the join page, the console and the docs. */
import { gzipSync } from 'node:zlib';
import { type BenchContext, consoleSignIn } from './harness';

async function firstLoadJs(base: string, page: string, cookie?: string) {
  const res = await fetch(`${base}${page}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  if (res.status !== 200) throw new Error(`${page}: HTTP ${res.status}`);
  const html = await res.text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  let raw = 0;
  let gzip = 0;
  for (const src of new Set(scripts)) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body).length;
  }
  return { page, scripts: new Set(scripts).size, kb: Math.round(raw / 1024), gzipKb: Math.round(gzip / 1024) };
}

export async function pagesBench({ base, consoleUser }: BenchContext) {
  const consoleCookie = await consoleSignIn(base, consoleUser);
  const pages = [
    await firstLoadJs(base, `/join?token=x.y.z&url=ws%3A%2F%2F127.0.0.1`),
    await firstLoadJs(base, '/console', consoleCookie),
    await firstLoadJs(base, '/docs'),
  ];
  const markdown = [
    '## First-load JavaScript',
    '',
    '| page | scripts | KB | KB gzip |',
    '|---|---|---|---|',
    ...pages.map((p) => `| ${p.page.split('?')[0]} | ${p.scripts} | ${p.kb} | ${p.gzipKb} |`),
    '',
  ].join('\n');
  return { pages, markdown };
}
