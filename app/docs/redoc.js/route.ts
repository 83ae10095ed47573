import { readFile } from 'node:fs/promises';
import path from 'node:path';

// Redoc's standalone renderer, served from our own node_modules (no CDN).
let bundle: Promise<string> | undefined;

export async function GET() {
  bundle ??= readFile(path.join(process.cwd(), 'node_modules/redoc/bundles/redoc.standalone.js'), 'utf8');
  return new Response(await bundle, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
  });
}
