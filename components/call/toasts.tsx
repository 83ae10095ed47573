'use client';

import { useEffect, useState } from 'react';
import type { ExternalToast, ToasterProps } from 'sonner';

/**
 * The call's toasts (sonner), loaded with the first toast: most calls show none in their first
 * minutes, so its 10 KB is not part of joining (e2e/join-weight.spec.ts). `toast` takes sonner's
 * arguments; a toast asked for before the toaster is up waits for it (sonner drops a toast that no
 * toaster is subscribed to yet).
 */
type Sonner = typeof import('sonner');
type Message = Parameters<Sonner['toast']>[0];

let wanted = false;
const onWanted = new Set<() => void>();
/** The toaster on screen, subscribed to sonner's state; undefined until then (and after it unmounts). */
let shown: Sonner | undefined;
let whenShown: Promise<Sonner>;
let resolveShown: (sonner: Sonner) => void;
const resetShown = () => {
  shown = undefined;
  whenShown = new Promise((resolve) => {
    resolveShown = resolve;
  });
};
resetShown();

function withSonner(use: (sonner: Sonner) => void) {
  if (shown) return use(shown);
  if (!wanted) {
    wanted = true;
    for (const load of onWanted) load();
  }
  void whenShown.then(use);
}

export const toast = Object.assign(
  (message: Message, data?: ExternalToast) => withSonner((s) => s.toast(message, data)),
  {
    error: (message: Message, data?: ExternalToast) => withSonner((s) => s.toast.error(message, data)),
    /** Nothing to dismiss before the first toast; one still waiting for the toaster is dismissed after it. */
    dismiss: (id: string) => {
      if (shown) shown.toast.dismiss(id);
      else if (wanted) void whenShown.then((s) => s.toast.dismiss(id));
    },
  },
);

/** Where the call's toasts appear; renders nothing (and loads nothing) until the first toast. */
export function CallToaster(props: ToasterProps) {
  const [sonner, setSonner] = useState<Sonner | null>(null);
  useEffect(() => {
    const load = () => void import('sonner').then(setSonner);
    if (wanted) load();
    else onWanted.add(load);
    return () => {
      onWanted.delete(load);
    };
  }, []);
  useEffect(() => {
    if (!sonner) return;
    // The Toaster's own effect (its subscription) ran before this one: a child's effects run first.
    shown = sonner;
    resolveShown(sonner);
    return resetShown;
  }, [sonner]);
  return sonner ? <sonner.Toaster {...props} /> : null;
}
