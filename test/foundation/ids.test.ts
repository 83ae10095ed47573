import { describe, expect, it } from 'vitest';
import { pooledRandomBytes, randomBase62 } from '@/lib/crypto';
import { newRowId } from '@/lib/ids';

describe('random ids', () => {
  it('pooled random bytes are handed out once: no draw repeats another, across many refills of the pool', () => {
    // 16-byte draws over ~40 refills of the 4 KB pool, with odd sizes in between to misalign them.
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const draw = pooledRandomBytes(16);
      expect(draw.length).toBe(16);
      seen.add(draw.toString('hex'));
      pooledRandomBytes(i % 7);
    }
    expect(seen.size).toBe(10_000);
  });

  it('a draw owns its memory (no view of the pool: its buffer reveals no other draw); a draw larger than the pool works', () => {
    for (const size of [1, 8, 20, 40, 4096]) {
      const draw = pooledRandomBytes(size);
      expect(draw.length).toBe(size);
      expect(draw.byteOffset).toBe(0);
      expect(draw.buffer.byteLength).toBe(size);
    }
    const big = pooledRandomBytes(10_000);
    expect(big.length).toBe(10_000);
    expect(new Set(big).size).toBeGreaterThan(200);
  });

  it('randomBase62 gives the length asked, only base62 characters, every character about equally often', () => {
    const text = Array.from({ length: 2_000 }, () => randomBase62(31)).join('');
    expect(text).toMatch(/^[0-9A-Za-z]+$/);
    expect(text.length).toBe(62_000);
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    // 1,000 expected per character; a modulo bias toward the first 8 would put them near 1,130.
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(Math.abs(n - 1_000)).toBeLessThan(150);
  });

  it('newRowId: cuid-shaped (25 lowercase base-36 characters after "c"), unique, later ids sort after earlier ones', () => {
    const ids = Array.from({ length: 5_000 }, () => newRowId());
    for (const id of ids) expect(id).toMatch(/^c[0-9a-z]{24}$/);
    expect(new Set(ids).size).toBe(5_000);
    const later = newRowId();
    expect(ids.every((id) => id.slice(0, 13) <= later.slice(0, 13))).toBe(true);
  });
});
