'use client';

import { useEffect, useRef, useState } from 'react';

/**
 * A button that opens a menu below or above it (the layout choice, the control bar's More):
 * whether it is open, the button, the menu, and the menu's key handler — Escape closes an open
 * menu and puts focus back on its button, without closing what the menu sits in (a panel, full
 * screen). A press anywhere outside the button and the menu closes it too, so a menu never stays
 * open over what was opened next (the settings panel from More).
 */
export function useMenuButton() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onMenuKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    close();
  };
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (button.current?.contains(target) || menu.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);
  return { open, setOpen, button, menu, close, onMenuKeyDown };
}
