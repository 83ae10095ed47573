'use client';

import { useSyncExternalStore } from 'react';

/** The phone layout's breakpoint (Tailwind's `sm`: below 640 px wide), as app/globals.css uses it. */
const PHONE = '(max-width: 639px)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** Whether the call is laid out for a phone now; follows rotation and resizing. */
export function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
}
