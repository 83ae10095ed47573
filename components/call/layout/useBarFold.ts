'use client';

import { useEffect, useState, type RefObject } from 'react';

/**
 * How the control bar keeps to one row, first that fits: 'none' (everything, each an icon over its
 * word), 'icons' (the words become the buttons' accessible names only), 'secondary' (settings,
 * layout, full screen, picture-in-picture in the "More" menu) or 'all' (the bar's extra controls —
 * hand, reactions — in it too).
 */
export type BarFold = 'none' | 'icons' | 'secondary' | 'all';
const FOLDS: readonly BarFold[] = ['none', 'icons', 'secondary', 'all'];

/** The words a fold turns into accessible names only (app/globals.css). */
export const BAR_LABELS = '.convene-label, .lk-button-label';

/** The row's flex items, through its display: contents wrappers. */
function rowItems(bar: HTMLElement): HTMLElement[] {
  const all: HTMLElement[] = [];
  const collect = (el: Element) => {
    for (const child of el.children) {
      if (!(child instanceof HTMLElement)) continue;
      const style = getComputedStyle(child);
      if (style.display === 'contents') collect(child);
      else if (style.display !== 'none' && style.position !== 'absolute') all.push(child);
    }
  };
  collect(bar);
  return all;
}

/** Whether the row, laid out as it is now, fits the bar's width. */
function fits(bar: HTMLElement): boolean {
  const style = getComputedStyle(bar);
  const gap = Number.parseFloat(style.columnGap) || 0;
  const available = bar.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
  const items = rowItems(bar);
  // Each item at its own content width (max-content), not what the squeezed row gives it.
  const width =
    items.reduce((sum, el) => sum + Math.max(el.getBoundingClientRect().width, el.scrollWidth), 0) +
    gap * Math.max(0, items.length - 1);
  return width <= available + 1;
}

/**
 * The first fold whose row fits: each is tried in place (the attribute the CSS reads, set and put
 * back within one task, so nothing is painted in between).
 */
function measure(bar: HTMLElement): BarFold {
  const shown = bar.dataset.fold;
  let chosen: BarFold = 'all';
  for (const fold of FOLDS) {
    bar.dataset.fold = fold;
    if (fits(bar)) {
      chosen = fold;
      break;
    }
  }
  if (shown === undefined) delete bar.dataset.fold;
  else bar.dataset.fold = shown;
  return chosen;
}

/**
 * The fold that keeps the control bar one row at its width, measured again when the bar's width
 * changes or a control comes, goes or changes its words (End meeting once the role is known,
 * "Raise hand" becoming "Lower hand").
 */
export function useBarFold(bar: RefObject<HTMLElement | null>): BarFold {
  const [fold, setFold] = useState<BarFold>('none');
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    let frame = 0;
    const check = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setFold(measure(el)));
    };
    const resize = new ResizeObserver(check);
    resize.observe(el);
    // Not the fold attribute itself: measuring sets it and puts it back.
    const mutations = new MutationObserver(check);
    mutations.observe(el, { childList: true, subtree: true, characterData: true });
    check();
    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      mutations.disconnect();
    };
  }, [bar]);
  return fold;
}
