'use client';

import { useEffect, useRef } from 'react';
import { toast } from '@/components/call/toasts';
import type { ChatState } from '@/components/call/useChat';
import { useT } from '@/components/call/useT';

/** How much of a message the toast shows. */
const PREVIEW = 90;

/**
 * While the chat is closed, each new message from someone else pops up as a toast — their name
 * and the start of the message, with Open chat — one at a time (a newer one replaces it). History
 * read when the call opened is not announced.
 */
export function useChatToasts(chat: ChatState, open: boolean, selfExternalUserId: string | null, openChat: () => void) {
  const t = useT();
  const known = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!chat.loaded) return;
    const ids = chat.messages.map((m) => m.id);
    if (known.current === null || open) {
      known.current = new Set(ids);
      if (open) toast.dismiss('chat-message');
      return;
    }
    const fresh = chat.messages.filter((m) => !known.current?.has(m.id));
    for (const id of ids) known.current.add(id);
    const latest = fresh.filter((m) => m.senderExternalUserId !== selfExternalUserId).at(-1);
    if (!latest) return;
    const text = latest.text.length > PREVIEW ? `${latest.text.slice(0, PREVIEW)}…` : latest.text;
    toast(t.chat.toast(latest.senderName), {
      id: 'chat-message',
      description: text,
      duration: 6000,
      action: { label: t.chat.open, onClick: openChat },
    });
  }, [chat.loaded, chat.messages, open, selfExternalUserId, t, openChat]);
}
