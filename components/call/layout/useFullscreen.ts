'use client';

import { useCallback, useEffect, useState } from 'react';

/** The call in full screen (the element `target` returns), and whether it is now. */
export function useFullscreen(target: () => HTMLElement | null) {
  const [active, setActive] = useState(false);
  const supported = typeof document !== 'undefined' && !!document.fullscreenEnabled;
  useEffect(() => {
    const update = () => setActive(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else
      void target()
        ?.requestFullscreen()
        .catch(() => undefined); // refused (no user gesture, policy): stays as is
  }, [target]);
  return { supported, active, toggle };
}
