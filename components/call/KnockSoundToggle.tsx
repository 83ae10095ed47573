'use client';

import { focusRing } from '@/components/call/focus-ring';
import { setKnockSound } from '@/components/call/knock-sound';
import { useKnockSound } from '@/components/call/useKnockSound';
import { useT } from '@/components/call/useT';
import { Icon } from '@/components/call/icons';

/** Turns the knock sound on or off for this browser (host controls, and each knock toast). */
export function KnockSoundToggle() {
  const t = useT();
  const on = useKnockSound();
  return (
    <button
      type="button"
      aria-pressed={on}
      title={t.knockSound.hint}
      onClick={() => setKnockSound(!on)}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded bg-slate-700 px-2 py-1 text-sm text-white hover:bg-slate-600 ${focusRing}`}
    >
      <Icon name={on ? 'bell' : 'bellOff'} size={16} />
      {t.knockSound.label}
    </button>
  );
}
