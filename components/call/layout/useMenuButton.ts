'use client';

import { useRef, useState } from 'react';

/**
 * A button that opens a menu below or above it (the layout choice, the control bar's More):
 * whether it is open, the button, and the menu's key handler — Escape closes an open menu and puts
 * focus back on its button, without closing what the menu sits in (a panel, full screen).
 */
export function useMenuButton() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onMenuKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    close();
  };
  return { open, setOpen, button, close, onMenuKeyDown };
}
