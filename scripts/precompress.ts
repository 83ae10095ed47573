/**
 * After `next build`: writes a Brotli copy (quality 11) beside each JavaScript and CSS file of the
 * build's static assets, for the app server to send to browsers that accept it
 * (server/static-brotli.ts). `npm run build` runs it; the build directory is NEXT_DIST_DIR or .next.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { PRECOMPRESSED_EXTENSIONS } from '../server/static-brotli';

const staticDir = path.resolve(process.env.NEXT_DIST_DIR || '.next', 'static');

function* assets(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* assets(full);
    else if ((PRECOMPRESSED_EXTENSIONS as readonly string[]).includes(path.extname(entry.name))) yield full;
  }
}

let files = 0;
let before = 0;
let after = 0;
for (const file of assets(staticDir)) {
  const target = `${file}.br`;
  const source = readFileSync(file);
  let compressed: Buffer;
  try {
    if (statSync(target).mtimeMs >= statSync(file).mtimeMs) compressed = readFileSync(target);
    else throw new Error('stale');
  } catch {
    compressed = brotliCompressSync(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    });
    writeFileSync(target, compressed);
  }
  files++;
  before += source.length;
  after += compressed.length;
}
console.log(
  `▸ Brotli copies of ${files} static files in ${path.relative(process.cwd(), staticDir)}: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB`,
);
