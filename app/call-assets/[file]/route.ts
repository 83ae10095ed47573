import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * The call UI's media processors' WebAssembly files, from the npm packages that ship them, served
 * from our own origin: processors fetch theirs from CDNs by default, which the page's CSP (and an
 * offline machine) forbids. Only the files named here are served: RNNoise's, and for background
 * blur and virtual backgrounds MediaPipe's vision runtime (its loader picks the SIMD or non-SIMD
 * build) and a person-segmentation model. The model is MediaPipe's landscape selfie segmenter as
 * Twilio's package ships it: the only npm-shipped copy whose TFLite metadata (input normalisation)
 * MediaPipe's ImageSegmenter accepts (see docs/hosted-ui.md).
 */
const FILES: Record<string, string> = {
  'rnnoise.wasm': '@jitsi/rnnoise-wasm/dist/rnnoise.wasm',
  'vision_wasm_internal.js': '@mediapipe/tasks-vision/wasm/vision_wasm_internal.js',
  'vision_wasm_internal.wasm': '@mediapipe/tasks-vision/wasm/vision_wasm_internal.wasm',
  'vision_wasm_nosimd_internal.js': '@mediapipe/tasks-vision/wasm/vision_wasm_nosimd_internal.js',
  'vision_wasm_nosimd_internal.wasm': '@mediapipe/tasks-vision/wasm/vision_wasm_nosimd_internal.wasm',
  'selfie_segmentation_landscape.tflite': '@twilio/video-processors/dist/build/selfie_segmentation_landscape.tflite',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.tflite': 'application/octet-stream',
};

export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const packaged = Object.hasOwn(FILES, file) ? FILES[file] : null;
  if (!packaged) return new Response('Not found', { status: 404 });
  const full = path.join(process.cwd(), 'node_modules', packaged);
  const { size } = await stat(full);
  return new Response(Readable.toWeb(createReadStream(full)) as ReadableStream, {
    headers: {
      'content-type': TYPES[path.extname(file)],
      'content-length': String(size),
      // The packages' versions are pinned: a day's caching is safe.
      'cache-control': 'public, max-age=86400',
    },
  });
}
