/**
 * The composite's layouts and tile drawing (media-server/egress/layout.ts), by value: where each
 * participant goes in grid, speaker and single-speaker, and a frame drawn into a tile keeping its
 * aspect ratio.
 */
import { describe, expect, it } from 'vitest';
import { blankFrame, drawTile, layoutTiles, mix } from '@/media-server/egress/layout';

describe('composite layouts', () => {
  it('grid: equal cells, rows filled left to right', () => {
    expect(layoutTiles('grid', ['a', 'b'], undefined, 1280, 720)).toEqual([
      { key: 'a', x: 0, y: 0, width: 640, height: 720 },
      { key: 'b', x: 640, y: 0, width: 640, height: 720 },
    ]);
    const three = layoutTiles('grid', ['a', 'b', 'c'], undefined, 1280, 720);
    expect(three.map((t) => [t.x, t.y, t.width, t.height])).toEqual([
      [0, 0, 640, 360],
      [640, 0, 640, 360],
      [0, 360, 640, 360],
    ]);
  });

  it('speaker: the focus large on the left, the others in a column; single-speaker: the focus alone', () => {
    const tiles = layoutTiles('speaker', ['a', 'b', 'c'], 'b', 1280, 720);
    expect(tiles[0]).toEqual({ key: 'b', x: 0, y: 0, width: 1024, height: 720 });
    expect(tiles.slice(1).map((t) => [t.key, t.x, t.y, t.width, t.height])).toEqual([
      ['a', 1024, 0, 256, 180],
      ['c', 1024, 180, 256, 180],
    ]);
    expect(layoutTiles('single-speaker', ['a', 'b'], 'b', 1280, 720)).toEqual([
      { key: 'b', x: 0, y: 0, width: 1280, height: 720 },
    ]);
    // No known speaker yet: the first participant.
    expect(layoutTiles('single-speaker', ['a', 'b'], undefined, 1280, 720)[0].key).toBe('a');
  });

  it('draws a 16:9 frame into a taller tile letter-boxed, centred, scaled', () => {
    const canvas = blankFrame(8, 8);
    const src = Buffer.alloc((8 * 4 * 3) / 2, 200); // 8×4, every plane 200
    drawTile(canvas, 8, 8, { key: 'a', x: 0, y: 0, width: 8, height: 8 }, src, 8, 4);
    const luma = [...canvas.subarray(0, 64)];
    expect(luma.slice(0, 16).every((v) => v === 0)).toBe(true); // two black rows above
    expect(luma.slice(16, 48).every((v) => v === 200)).toBe(true); // four rows of picture
    expect(luma.slice(48).every((v) => v === 0)).toBe(true); // two black rows below
  });

  it('mixes audio by summing, clipped to 16 bits, padded with silence', () => {
    const out = mix([Int16Array.from([1000, 30000, -30000]), Int16Array.from([2000, 30000])], 4);
    expect([0, 1, 2, 3].map((i) => out.readInt16LE(i * 2))).toEqual([3000, 32767, -30000, 0]);
  });
});
