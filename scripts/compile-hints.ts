/**
 * After `next build`, before precompress: marks the scripts the hosted join page fetches ahead of
 * use — the call (livekit-client, the call UI), prefetched while the person looks at their preview
 * — with V8's explicit compile hint, `//# allFunctionsCalledOnLoad` on their first line. V8 (Chromium
 * 136 and later) then compiles all of a marked script's functions as it loads, on a background
 * thread, instead of each one on the page's main thread the first time it runs: in the middle of
 * the join, where a trace of the joiner's page found 125–176 ms of such compiling in the 700 ms
 * after the press, and 3–8 ms with the hint. Other engines read it as a comment.
 *
 * The page's first load is not marked (its functions are compiled as it needs them, so the
 * pre-join shows sooner), nor are other pages' on-demand scripts, which load when they are used.
 * A marked script that another page loads at once is compiled whole there too (the waiting
 * room's livekit-client, off its thread as it streams in).
 * The scripts are found as Turbopack's chunk loaders list them; a build where none are found
 * fails here, rather than losing the hint unseen.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMain } from './is-main';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

const distDir = path.resolve(process.env.NEXT_DIST_DIR || '.next');
const manifest = path.join(distDir, 'server/app/join/page_client-reference-manifest.js');

/** The join page's own scripts (its first load), as its client reference manifest names them. */
function firstLoad() {
  const text = readFileSync(manifest, 'utf8');
  return [...new Set(text.match(/\/_next\/static\/chunks\/[\w.-]+\.js/g) ?? [])].map((url) =>
    url.slice('/_next/'.length),
  );
}

/** The scripts those load on demand: each Turbopack loader's `Promise.all(["static/chunks/….js", …]`. */
function onDemand(scripts: string[]) {
  const found = new Set<string>();
  for (const script of scripts) {
    const text = readFileSync(path.join(distDir, script), 'utf8');
    for (const list of text.matchAll(/Promise\.all\(\[((?:"static\/chunks\/[\w.-]+\.js",?)+)\]/g))
      for (const chunk of list[1].match(/static\/chunks\/[\w.-]+\.js/g) ?? []) found.add(chunk);
  }
  for (const script of scripts) found.delete(script);
  return [...found];
}

/** Marks them; throws when the build has no such scripts. */
function main() {
  if (!existsSync(manifest)) throw new Error(`compile hints: no ${path.relative(process.cwd(), manifest)}`);
  const marked = onDemand(firstLoad());
  if (marked.length === 0)
    throw new Error('compile hints: no on-demand scripts found for /join (has Turbopack’s chunk loader changed?)');
  let added = 0;
  for (const chunk of marked) {
    const file = path.join(distDir, chunk);
    const text = readFileSync(file, 'utf8');
    if (text.startsWith(COMPILE_HINT)) continue;
    writeFileSync(file, COMPILE_HINT + text);
    added++;
  }
  console.log(`▸ Compile hints on the ${marked.length} scripts /join loads on demand (${added} newly marked)`);
}

if (isMain(import.meta.filename)) main();
