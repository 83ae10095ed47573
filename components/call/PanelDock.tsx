'use client';

import { useEffect, useRef, useState } from 'react';
import dynamic from 'next/dynamic';
import { useT } from '@/components/call/useT';
import { useCall, type PanelKey } from '@/components/call/call-context';
import type { CallPanel } from '@/components/call/useCallPanels';
import { Icon } from '@/components/call/icons';
import { focusRing } from '@/components/call/focus-ring';

// Device settings, backgrounds and noise suppression (and their processors) load when first opened, like every panel's view.
const SettingsPanel = dynamic(() => import('@/components/call/settings/SettingsSheet'), { ssr: false });

/**
 * The open panel, docked at the right of the stage (the stage and its control bar shrink to make
 * room: nothing covers a tile); on a phone an opaque sheet between the top bar and the control
 * bar, so mute and leave stay in reach. Each panel is a region named by its title; Escape or its
 * close button closes it and returns focus to the button that opened it.
 */
export function PanelDock({ panels }: { panels: CallPanel[] }) {
  const t = useT();
  const { panel, closePanel } = useCall();
  // A panel's view mounts when first opened and then stays (hidden while closed): its code loads
  // then, and what was typed or scrolled in it is kept. Settings keep the background and noise choices.
  const [opened, setOpened] = useState<ReadonlySet<PanelKey>>(new Set());
  useEffect(() => {
    if (panel) setOpened((seen) => (seen.has(panel) ? seen : new Set(seen).add(panel)));
  }, [panel]);
  const shown = (key: PanelKey) => opened.has(key) || panel === key;
  const all: { key: PanelKey; title: string; body: React.ReactNode }[] = [
    ...panels.map(({ key, title, body, alwaysMounted }) => ({
      key,
      title,
      body: alwaysMounted || shown(key) ? body : null,
    })),
    ...(shown('settings')
      ? [{ key: 'settings' as const, title: t.settings.title, body: <SettingsPanel open={panel === 'settings'} /> }]
      : []),
  ];
  return (
    <aside className="convene-dock" data-open={panel !== null} data-panel={panel ?? undefined}>
      {all.map(({ key, title, body }) => (
        <DockedPanel
          key={key}
          id={key}
          title={title}
          open={panel === key}
          onClose={closePanel}
          closeLabel={t.panels.close}
        >
          {body}
        </DockedPanel>
      ))}
    </aside>
  );
}

function DockedPanel({
  id,
  title,
  open,
  onClose,
  closeLabel,
  children,
}: {
  id: PanelKey;
  title: string;
  open: boolean;
  onClose: () => void;
  closeLabel: string;
  children: React.ReactNode;
}) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (open) section.current?.focus();
  }, [open]);
  return (
    <section
      ref={section}
      id={`convene-panel-${id}`}
      tabIndex={-1}
      aria-label={title}
      hidden={!open}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
      className={`convene-panel ${focusRing}`}
    >
      <div className="convene-panel-header">
        <h2 className="text-base font-semibold">{title}</h2>
        <button
          type="button"
          aria-label={closeLabel}
          title={closeLabel}
          onClick={onClose}
          className={`rounded p-1.5 hover:bg-slate-700 ${focusRing}`}
        >
          <Icon name="close" size={18} />
        </button>
      </div>
      <div className="convene-panel-body">{children}</div>
    </section>
  );
}
