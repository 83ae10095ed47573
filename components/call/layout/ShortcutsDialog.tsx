'use client';

import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';
import { ModalDialog } from '@/components/call/ModalDialog';

/** The keys each shortcut takes (useCallShortcuts.ts), in the order the list shows them. */
const SHORTCUTS = [
  ['microphone', ['M', 'Ctrl+D']],
  ['camera', ['V', 'Ctrl+E']],
  ['hand', ['H']],
  ['chat', ['C']],
  ['fullscreen', ['F']],
  ['help', ['?']],
] as const;

/**
 * The call's keyboard shortcuts, opened with "?" (a modal dialog; Escape closes). On a Mac, Ctrl
 * reads ⌘.
 */
export function ShortcutsDialog({ open, onClose, hand }: { open: boolean; onClose: () => void; hand: boolean }) {
  const t = useT();
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <ModalDialog open={open} title={t.stage.shortcuts} onClose={onClose} width="26rem">
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        {SHORTCUTS.filter(([what]) => what !== 'hand' || hand).map(([what, keys]) => (
          <div key={what} className="contents">
            <dt className="whitespace-nowrap">
              {keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && <span className="text-slate-300"> {t.stage.or} </span>}
                  <kbd className="rounded border border-slate-500 bg-slate-800 px-1.5 py-0.5 font-mono text-xs">
                    {mac ? k.replace('Ctrl+', '⌘') : k}
                  </kbd>
                </span>
              ))}
            </dt>
            <dd className="text-slate-200">{t.stage.keys[what]}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 flex justify-end">
        <button type="button" autoFocus onClick={onClose} className={`rounded bg-slate-700 px-3 py-1.5 ${focusRing}`}>
          {t.stage.close}
        </button>
      </div>
    </ModalDialog>
  );
}
