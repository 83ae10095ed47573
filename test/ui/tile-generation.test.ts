import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { updatePages } from '@livekit/components-core';
import { replacesTiles, type TileRef } from '@/components/call/layout/tile-generation';

// When the call's stage remounts a LiveKit layout (components/call/layout/tile-generation.ts):
// only when tiles are replaced in one step, which LiveKit's visual-stable update cannot follow.
const tile = (identity: string, sid?: string, source = 'camera'): TileRef => ({
  participant: { identity },
  source,
  ...(sid ? { publication: { trackSid: sid } } : {}),
});

describe('replacesTiles', () => {
  const [a, b, c] = [tile('a', 'TR_a'), tile('b', 'TR_b'), tile('c', 'TR_c')];

  it('the focus moving from one person to another replaces a strip tile', () => {
    expect(replacesTiles([b, c], [a, c])).toBe(true);
  });

  it('a camera published again (a new track) replaces its tile', () => {
    expect(replacesTiles([a, b], [a, tile('b', 'TR_b2')])).toBe(true);
  });

  it('joins, departures and reordering do not', () => {
    expect(replacesTiles([a, b], [a, b, c])).toBe(false);
    expect(replacesTiles([a, b, c], [a, c])).toBe(false);
    expect(replacesTiles([a, b, c], [c, a, b])).toBe(false);
    expect(replacesTiles([], [a])).toBe(false);
  });

  it('a placeholder filled by its participant’s track does not (LiveKit follows that itself)', () => {
    expect(replacesTiles([a, tile('b')], [a, b])).toBe(false);
    expect(replacesTiles([tile('a'), tile('b')], [a, b])).toBe(false);
    // …but a placeholder of someone else is.
    expect(replacesTiles([a, tile('b')], [a, c])).toBe(true);
  });

  it('a screen share is a tile of its own beside the camera', () => {
    expect(replacesTiles([a, b], [a, b, tile('b', 'TR_s', 'screen_share')])).toBe(false);
  });
});

describe('against LiveKit’s own visual-stable update', () => {
  // What GridLayout and CarouselLayout run on every render (useVisualStableUpdate → updatePages).
  const universe = ['a', 'b', 'c', 'd', 'e'].flatMap((who) => [
    tile(who, `TR_${who}`),
    tile(who),
    tile(who, `TR_${who}2`),
  ]);
  const list = fc
    .uniqueArray(fc.constantFrom(...universe), {
      selector: (t) => `${t.participant.identity}:${t.source}`,
      maxLength: 5,
    })
    .map((tiles) => tiles as never[]);

  it('the focus moving throws in updatePages: the console error issue 45 saw', () => {
    expect(() =>
      updatePages(
        [tile('b', 'TR_b'), tile('c', 'TR_c')] as never[],
        [tile('a', 'TR_a'), tile('c', 'TR_c')] as never[],
        4,
      ),
    ).toThrow(/Element not part of the array/);
  });

  it('whenever replacesTiles says no, updatePages follows the change without an error (property)', () => {
    fc.assert(
      fc.property(list, list, fc.integer({ min: 1, max: 6 }), (prev, next, perPage) => {
        fc.pre(!replacesTiles(prev, next));
        expect(() => updatePages(prev, next, perPage)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
