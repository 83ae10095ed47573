import { useRef } from 'react';

/** What a stage tile is, as LiveKit's layouts key it: a participant's source, with its track once published. */
export interface TileRef {
  participant: { identity: string };
  source: string;
  publication?: { trackSid: string };
}

const place = (t: TileRef) => `${t.participant.identity}\u0000${t.source}`;
const tileId = (t: TileRef) => `${place(t)}\u0000${t.publication?.trackSid ?? ''}`;

/**
 * Whether `next` replaces tiles of `prev` in one step: some tile gone and another come at once
 * (the focus moving from one person to another takes the first out of the strip and puts the
 * other in; a camera published again has a new track). LiveKit's visual-stable update
 * (useVisualStableUpdate in GridLayout and CarouselLayout) then looks for the newcomer in its
 * old list, fails, and logs `updatePages(): Element not part of the array` to the console. A
 * placeholder that becomes its participant's published track is not a replacement: LiveKit
 * follows that one itself.
 */
export function replacesTiles(prev: readonly TileRef[], next: readonly TileRef[]): boolean {
  const before = new Set(prev.map(tileId));
  const after = new Set(next.map(tileId));
  const added = next.filter((t) => !before.has(tileId(t)));
  const dropped = prev.filter((t) => !after.has(tileId(t)));
  const placeholdersFilled = new Set(added.filter((t) => t.publication).map(place));
  const gone = dropped.filter((t) => t.publication || !placeholdersFilled.has(place(t)));
  const come = added.filter((t) => !dropped.some((d) => !d.publication && t.publication && place(d) === place(t)));
  return gone.length > 0 && come.length > 0;
}

/**
 * A number that changes when the tiles are replaced (replacesTiles): the key of the LiveKit layout
 * that shows them, so it starts afresh instead of failing to follow the change. Joins, departures
 * and reordering keep the layout (and its tiles) as they are.
 */
export function useTileGeneration(tiles: readonly TileRef[]): number {
  const last = useRef({ tiles, generation: 0 });
  if (last.current.tiles !== tiles) {
    const generation = last.current.generation + (replacesTiles(last.current.tiles, tiles) ? 1 : 0);
    last.current = { tiles, generation };
  }
  return last.current.generation;
}
