'use client';

import { useT } from '@/components/call/useT';
import { ControlLabel } from '@/components/call/layout/ControlLabel';

interface Toggle {
  supported: boolean;
  active: boolean;
  toggle: () => void;
}

/**
 * Full screen (the whole call: stage, tools, panels) and picture-in-picture (the large or first
 * other person's video), each shown only where the browser offers it: an icon over its word, as
 * every control of the bar.
 */
export function StageButtons({ fullscreen, pip }: { fullscreen: Toggle; pip: Toggle }) {
  const t = useT();
  return (
    <>
      <StageToggle toggle={fullscreen} label={fullscreen.active ? t.stage.exitFullscreen : t.stage.fullscreen}>
        <svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true">
          <path
            d={fullscreen.active ? 'M6 1v5H1M10 1v5h5M6 15v-5H1M10 15v-5h5' : 'M1 6V1h5M15 6V1h-5M1 10v5h5M15 10v5h-5'}
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </StageToggle>
      <StageToggle toggle={pip} label={pip.active ? t.stage.exitPip : t.stage.pip}>
        <svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true">
          <rect x="1" y="2.5" width="14" height="11" rx="1.5" stroke="currentColor" strokeWidth="1.5" />
          <rect x="8" y="8" width="5" height="3.5" rx=".5" fill="currentColor" />
        </svg>
      </StageToggle>
    </>
  );
}

/** A pressed-or-not icon button named by what pressing it does; nothing where the browser lacks it. */
function StageToggle({ toggle, label, children }: { toggle: Toggle; label: string; children: React.ReactNode }) {
  if (!toggle.supported) return null;
  return (
    <button
      type="button"
      className="lk-button convene-icon-control"
      aria-label={label}
      title={label}
      aria-pressed={toggle.active}
      onClick={toggle.toggle}
    >
      {children}
      <ControlLabel>{label}</ControlLabel>
    </button>
  );
}
