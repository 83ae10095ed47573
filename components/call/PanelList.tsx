'use client';

import type { ReactNode } from 'react';
import { useT } from '@/components/call/useT';

/**
 * A panel's list (polls, questions): "loading" (or "could not load") until it is read, the
 * panel's empty text when there is nothing, else a list of `item(each)` (each an <li>).
 */
export function PanelList<T>({
  items,
  failed,
  empty,
  className,
  item,
}: {
  items: readonly T[] | null;
  failed: boolean;
  empty: string;
  className: string;
  item: (each: T) => ReactNode;
}) {
  const t = useT();
  if (items === null) return <p>{failed ? t.panels.loadFailed : t.panels.loading}</p>;
  if (items.length === 0) return <p className="text-slate-300">{empty}</p>;
  return <ul className={className}>{items.map(item)}</ul>;
}
