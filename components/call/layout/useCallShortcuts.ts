'use client';

import { useEffect, useRef } from 'react';

export interface ShortcutActions {
  microphone?: () => void;
  camera?: () => void;
  hand?: () => void;
  chat?: () => void;
  fullscreen?: () => void;
  help: () => void;
}

/** Typing goes to the field, never to the call: inputs, text areas, selects and editable text. */
function isTyping(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    !!target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')
  );
}

/**
 * The call's keyboard shortcuts (listed by ShortcutsDialog, docs/hosted-ui.md): m / Ctrl+D (⌘D)
 * microphone, v / Ctrl+E (⌘E) camera, h hand, c chat, f full screen, ? this list. Nothing fires
 * while typing, inside an open dialog, or with other modifiers held.
 */
export function useCallShortcuts(actions: ShortcutActions) {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || e.altKey || isTyping(e.target)) return;
      if (e.target instanceof Element && e.target.closest('dialog[open]')) return;
      const a = latest.current;
      const key = e.key.toLowerCase();
      let action: (() => void) | undefined;
      if (e.ctrlKey || e.metaKey) {
        if (!e.shiftKey) action = key === 'd' ? a.microphone : key === 'e' ? a.camera : undefined;
      } else if (e.key === '?') action = a.help;
      else if (!e.shiftKey) {
        const plain: Record<string, (() => void) | undefined> = {
          m: a.microphone,
          v: a.camera,
          h: a.hand,
          c: a.chat,
          f: a.fullscreen,
        };
        action = Object.hasOwn(plain, key) ? plain[key] : undefined;
      }
      if (!action) return;
      // Ctrl+D and Ctrl+E are the browser's (bookmark, search) unless the call takes them.
      e.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
