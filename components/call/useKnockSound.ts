'use client';

import { useSyncExternalStore } from 'react';
import { knockSoundOn, subscribeKnockSound } from '@/components/call/knock-sound';

/** Whether the knock sound is on in this browser, kept current when it is switched anywhere. */
export function useKnockSound(): boolean {
  return useSyncExternalStore(subscribeKnockSound, knockSoundOn, () => true);
}
