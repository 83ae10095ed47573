'use client';

import { useEffect, useState, type RefObject } from 'react';

/**
 * How the control bar keeps to one row, first that fits: 'none' (everything, with words),
 * 'icons' (the words become the buttons' accessible names only), 'secondary' (settings, layout,
 * full screen, picture-in-picture in the "More" menu) or 'all' (the bar's extra controls — hand,
 * reactions, End meeting — in it too).
 */
export type BarFold = 'none' | 'icons' | 'secondary' | 'all';

/** The words a fold turns into accessible names only (app/globals.css). */
export const BAR_LABELS = '.convene-label, .lk-button-label';

/** The display: contents wrappers whose children are items of the row (CallControls). */
const ROW_WRAPPERS = new Set(['convene-more', 'convene-more-secondary', 'convene-more-extra']);

/** A generous width for the More button, which is not in the row while measuring. */
const MORE_BUTTON_WIDTH = 48;

/** The row's flex items (through display: contents wrappers), and which of them `group` holds. */
function items(bar: HTMLElement, group: string) {
  const all: { el: HTMLElement; inGroup: boolean }[] = [];
  const collect = (el: Element, inGroup: boolean) => {
    for (const child of el.children) {
      if (!(child instanceof HTMLElement)) continue;
      const style = getComputedStyle(child);
      const grouped = inGroup || child.classList.contains(group);
      if (style.display === 'contents') collect(child, grouped);
      else if (style.display !== 'none' && style.position !== 'absolute') all.push({ el: child, inGroup: grouped });
    }
  };
  collect(bar, false);
  return all;
}

/** The fold the bar needs, measured while nothing is folded. */
function measure(bar: HTMLElement): BarFold {
  const style = getComputedStyle(bar);
  const gap = Number.parseFloat(style.columnGap) || 0;
  const available = bar.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
  const row = items(bar, 'convene-more-secondary');
  // An item's width without its words: the visible labels and the gap before each go.
  const iconWidth = (el: HTMLElement) => {
    let w = el.getBoundingClientRect().width;
    for (const label of el.querySelectorAll<HTMLElement>(BAR_LABELS)) {
      const box = label.getBoundingClientRect().width;
      const parent = label.parentElement ? Number.parseFloat(getComputedStyle(label.parentElement).columnGap) || 0 : 0;
      if (box > 1) w -= box + parent;
    }
    return w;
  };
  const width = (list: typeof row, icons: boolean) =>
    list.reduce((sum, i) => sum + (icons ? iconWidth(i.el) : i.el.getBoundingClientRect().width), 0) +
    gap * Math.max(0, list.length - 1);
  if (width(row, false) <= available + 1) return 'none';
  if (width(row, true) <= available + 1) return 'icons';
  const kept = row.filter((i) => !i.inGroup);
  if (width(kept, true) + gap + MORE_BUTTON_WIDTH <= available + 1) return 'secondary';
  return 'all';
}

/**
 * The fold that keeps the control bar one row at its width. Measured with everything in the row:
 * when the bar's width changes or a control comes or goes, the fold is undone for a moment and
 * measured again; while nothing is folded, any change of its controls (a label) is measured too.
 */
export function useBarFold(bar: RefObject<HTMLElement | null>): BarFold {
  const [fold, setFold] = useState<BarFold>('none');
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    let width = -1;
    const check = (records?: MutationRecord[] | ResizeObserverEntry[]) => {
      // A control came or went in the row itself (End meeting once the role is known): measure again.
      const rowChanged = records?.some(
        (r) =>
          r instanceof MutationRecord &&
          r.type === 'childList' &&
          (r.target === el || ROW_WRAPPERS.has((r.target as Element).className)),
      );
      if (el.clientWidth !== width || rowChanged) {
        width = el.clientWidth;
        if (el.dataset.fold !== 'none') {
          setFold('none'); // re-measured once unfolded (the attribute change comes back here)
          return;
        }
      }
      if (el.dataset.fold === 'none') setFold(measure(el));
    };
    const resize = new ResizeObserver(check);
    resize.observe(el);
    const mutations = new MutationObserver(check);
    mutations.observe(el, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-fold'],
    });
    check([]);
    return () => {
      resize.disconnect();
      mutations.disconnect();
    };
  }, [bar]);
  return fold;
}
