'use client';

import { useEffect, type RefObject } from 'react';

/**
 * The meeting tools (badges, panel toggles) sit over the top of the call; the stage starts below
 * them: this keeps `--convene-tools-clearance` on the call at the tools' bottom edge (their own
 * height and wrapping included), which the stage's padding uses (app/globals.css).
 */
export function useToolsClearance(stage: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const call = stage.current?.closest<HTMLElement>('.convene-call');
    const tools = call?.querySelector<HTMLElement>('.convene-tools');
    if (!call || !tools) return;
    const update = () => {
      const bottom = tools.getBoundingClientRect().bottom - call.getBoundingClientRect().top;
      call.style.setProperty('--convene-tools-clearance', `${Math.max(0, Math.ceil(bottom + 4))}px`);
    };
    const observer = new ResizeObserver(update);
    observer.observe(tools);
    observer.observe(call);
    update();
    return () => observer.disconnect();
  }, [stage]);
}
