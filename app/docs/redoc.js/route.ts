import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Redoc's sidebar footer fetches Redocly's logo from their CDN. The reference makes no request off
 * this origin (it works offline, and tells no third party who reads it): the logo gets an empty
 * source, whose load fails at once, and Redoc then leaves the image out.
 */
const THIRD_PARTY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

// Redoc's standalone renderer, served from our own node_modules (no CDN).
let bundle: Promise<string> | undefined;

export async function GET() {
  bundle ??= readFile(path.join(process.cwd(), 'node_modules/redoc/bundles/redoc.standalone.js'), 'utf8').then((js) =>
    js.replaceAll(THIRD_PARTY_LOGO, 'data:,'),
  );
  return new Response(await bundle, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
  });
}
