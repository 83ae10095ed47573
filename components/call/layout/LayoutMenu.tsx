'use client';

import { useEffect } from 'react';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';
import { STAGE_LAYOUTS, type StageLayout } from '@/components/call/layout/stage-layout';
import { ControlLabel } from '@/components/call/layout/ControlLabel';
import { useMenuButton } from '@/components/call/layout/useMenuButton';

/** The three layouts' pictures: tiles as the layout arranges them. */
const ICONS: Record<StageLayout, string> = {
  grid: 'M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM9 9h5v5H9z',
  speaker: 'M2 2h12v8H2zM2 12h3v2H2zM6.5 12h3v2h-3zM11 12h3v2h-3z',
  sidebar: 'M2 2h8v12H2zM12 2h2v3h-2zM12 6.5h2v3h-2zM12 11h2v3h-2z',
};

export function LayoutIcon({ layout }: { layout: StageLayout }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true">
      <path d={ICONS[layout]} stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The control bar's layout choice: a button that opens the three layouts (each a pressed/unpressed
 * button); Escape or a choice closes it.
 */
export function LayoutMenu({ layout, onChange }: { layout: StageLayout; onChange: (layout: StageLayout) => void }) {
  const t = useT();
  const { open, setOpen, button, menu, close, onMenuKeyDown } = useMenuButton();
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLButtonElement>('[aria-pressed="true"]')?.focus();
  }, [open]);
  return (
    <div className="relative flex">
      <button
        ref={button}
        type="button"
        className="lk-button"
        aria-label={t.stage.layout}
        aria-expanded={open}
        aria-controls="convene-layout-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <LayoutIcon layout={layout} />
        <ControlLabel>{t.stage.layout}</ControlLabel>
      </button>
      <div
        ref={menu}
        id="convene-layout-menu"
        role="group"
        aria-label={t.stage.layout}
        hidden={!open}
        onKeyDown={onMenuKeyDown}
        className="absolute bottom-full left-1/2 z-50 mb-2 flex -translate-x-1/2 flex-col gap-1 rounded-lg bg-slate-900 p-1 shadow-lg"
      >
        {STAGE_LAYOUTS.map((l) => (
          <button
            key={l}
            type="button"
            aria-pressed={layout === l}
            onClick={() => {
              onChange(l);
              close();
            }}
            className={`flex items-center gap-2 whitespace-nowrap rounded px-3 py-1.5 text-left text-sm text-white ${layout === l ? 'bg-sky-700' : 'hover:bg-slate-700'} ${focusRing}`}
          >
            <LayoutIcon layout={l} />
            {t.stage.layouts[l]}
          </button>
        ))}
      </div>
    </div>
  );
}
