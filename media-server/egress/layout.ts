/**
 * Where each video goes in the composed frame (LiveKit's room-composite layouts), and the frame
 * itself: I420 tiles copied with nearest-neighbour scaling into one canvas.
 */
export type LayoutName = 'grid' | 'speaker' | 'single-speaker';

export interface Tile {
  /** The participant (or screen share) the tile shows. */
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

export function layoutName(requested: string): LayoutName {
  return requested === 'speaker' || requested === 'single-speaker' ? requested : 'grid';
}

/**
 * grid: everyone in equal cells; speaker: the focus (a screen share, else the active speaker)
 * large on the left, the others in a column on the right; single-speaker: the focus alone.
 */
export function layoutTiles(
  layout: LayoutName,
  keys: string[],
  focus: string | undefined,
  width: number,
  height: number,
) {
  if (!keys.length) return [];
  const main = focus && keys.includes(focus) ? focus : keys[0];
  if (layout === 'single-speaker' || keys.length === 1) return [{ key: main, x: 0, y: 0, width, height }];
  if (layout === 'speaker') {
    const others = keys.filter((k) => k !== main);
    const side = even(width / 5);
    const cell = even(height / Math.max(4, others.length));
    return [
      { key: main, x: 0, y: 0, width: width - side, height },
      ...others.map((key, i) => ({ key, x: width - side, y: i * cell, width: side, height: cell })),
    ];
  }
  const cols = Math.ceil(Math.sqrt(keys.length));
  const rows = Math.ceil(keys.length / cols);
  const cellWidth = even(width / cols);
  const cellHeight = even(height / rows);
  return keys.map((key, i) => ({
    key,
    x: (i % cols) * cellWidth,
    y: Math.floor(i / cols) * cellHeight,
    width: cellWidth,
    height: cellHeight,
  }));
}

/** An I420 canvas: the Y plane, then U and V at half resolution. */
export function blankFrame(width: number, height: number) {
  const frame = Buffer.alloc((width * height * 3) / 2, 128);
  frame.fill(0, 0, width * height); // black
  return frame;
}

/** Copies one plane's source rectangle into dest's rectangle, nearest neighbour. */
function copyPlane(
  src: Buffer,
  srcOffset: number,
  srcWidth: number,
  srcHeight: number,
  dest: Buffer,
  destOffset: number,
  destStride: number,
  x: number,
  y: number,
  width: number,
  height: number,
) {
  if (srcWidth === width && srcHeight === height) {
    for (let row = 0; row < height; row++) {
      const from = srcOffset + row * srcWidth;
      src.copy(dest, destOffset + (y + row) * destStride + x, from, from + width);
    }
    return;
  }
  const columns = new Uint32Array(width);
  for (let col = 0; col < width; col++) columns[col] = Math.min(srcWidth - 1, Math.floor((col * srcWidth) / width));
  for (let row = 0; row < height; row++) {
    const srcRow = srcOffset + Math.min(srcHeight - 1, Math.floor((row * srcHeight) / height)) * srcWidth;
    const destRow = destOffset + (y + row) * destStride + x;
    for (let col = 0; col < width; col++) dest[destRow + col] = src[srcRow + columns[col]];
  }
}

/**
 * Draws an I420 frame (srcWidth × srcHeight) into the tile of an I420 canvas, keeping its aspect
 * ratio (the rest of the tile stays as the canvas was: black).
 */
export function drawTile(
  canvas: Buffer,
  canvasWidth: number,
  canvasHeight: number,
  tile: Tile,
  src: Buffer,
  srcWidth: number,
  srcHeight: number,
) {
  const wide = tile.width * srcHeight > srcWidth * tile.height;
  const width = wide ? even((tile.height * srcWidth) / srcHeight) : tile.width;
  const height = wide ? tile.height : even((tile.width * srcHeight) / srcWidth);
  // Centred, on even pixels (the chroma planes are half the size).
  const x = tile.x + Math.floor((tile.width - width) / 4) * 2;
  const y = tile.y + Math.floor((tile.height - height) / 4) * 2;
  const lumaSize = canvasWidth * canvasHeight;
  const srcLuma = srcWidth * srcHeight;
  copyPlane(src, 0, srcWidth, srcHeight, canvas, 0, canvasWidth, x, y, width, height);
  for (const plane of [0, 1]) {
    copyPlane(
      src,
      srcLuma + (plane * srcLuma) / 4,
      srcWidth / 2,
      srcHeight / 2,
      canvas,
      lumaSize + (plane * lumaSize) / 4,
      canvasWidth / 2,
      x / 2,
      y / 2,
      width / 2,
      height / 2,
    );
  }
}

/** A tile with no video (camera off): dark grey. */
export function fillTile(canvas: Buffer, canvasWidth: number, canvasHeight: number, tile: Tile, luma = 40) {
  for (let row = 0; row < tile.height; row++) {
    const start = (tile.y + row) * canvasWidth + tile.x;
    canvas.fill(luma, start, start + tile.width);
  }
  const lumaSize = canvasWidth * canvasHeight;
  for (const plane of [0, 1]) {
    const base = lumaSize + (plane * lumaSize) / 4;
    for (let row = 0; row < tile.height / 2; row++) {
      const start = base + (tile.y / 2 + row) * (canvasWidth / 2) + tile.x / 2;
      canvas.fill(128, start, start + tile.width / 2);
    }
  }
}

/** Sums tracks' samples into one (clipped) s16le buffer of exactly `samples` samples. */
export function mix(tracks: Int16Array[], samples: number): Buffer {
  const out = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    let sum = 0;
    for (const t of tracks) if (i < t.length) sum += t[i];
    out.writeInt16LE(sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum, i * 2);
  }
  return out;
}
