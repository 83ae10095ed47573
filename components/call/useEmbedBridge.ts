'use client';

import { useEffect, useRef, useState } from 'react';
import type { EmbedCommand, EmbedEventName, EmbedEvents } from '@/lib/embed/messages';
import { allowedParentOrigin, eventMessage, parseCommand } from '@/lib/embed/protocol';

export type CommandHandler = (command: EmbedCommand) => void;

export interface EmbedBridge {
  /** Posts an event to the parent page, only if it is framed by an allowed origin (never to `*`). */
  post<E extends EmbedEventName>(event: E, data: EmbedEvents[E]): void;
  /** Who handles commands now (the call, once connected); null: they are answered `command-failed: not-in-call`. */
  setCommandHandler(handler: CommandHandler | null): void;
}

function parentOriginOf(allowlist: readonly string[]): string | null {
  if (typeof window === 'undefined') return null;
  let framed = false;
  try {
    framed = window.parent !== window;
  } catch {
    framed = true;
  }
  return allowedParentOrigin({
    framed,
    ancestorOrigin: window.location.ancestorOrigins?.[0] ?? null,
    referrer: document.referrer || null,
    allowlist,
  });
}

/**
 * The hosted UI's side of the embedding protocol (lib/embed/protocol.ts). The allowlist is the
 * tenant's frameAncestors, which the server also put in this page's CSP: events go to the parent
 * only at an allowed origin, and commands are obeyed only from the parent window at that origin.
 */
export function useEmbedBridge(allowlist: readonly string[]): EmbedBridge {
  const origin = useRef<string | null | undefined>(undefined);
  const handler = useRef<CommandHandler | null>(null);
  const resolve = () => {
    if (origin.current === undefined) origin.current = parentOriginOf(allowlist);
    return origin.current;
  };

  const [bridge] = useState<EmbedBridge>(() => ({
    post(event, data) {
      const target = resolve();
      if (target) window.parent.postMessage(eventMessage(event, data), target);
    },
    setCommandHandler(next) {
      handler.current = next;
    },
  }));

  useEffect(() => {
    const target = resolve();
    if (!target) return;
    const onMessage = (e: MessageEvent) => {
      if (e.source !== window.parent || e.origin !== target) return;
      const command = parseCommand(e.data);
      if (!command) return;
      if ('invalid' in command) return bridge.post('command-failed', { command: command.command, reason: 'invalid' });
      if (!handler.current) return bridge.post('command-failed', { command: command.command, reason: 'not-in-call' });
      handler.current(command);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
    // The allowlist is fixed for the page's life (server-rendered).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge]);

  return bridge;
}
