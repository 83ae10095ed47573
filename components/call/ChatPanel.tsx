'use client';

import { useEffect, useRef, useState } from 'react';
import { CHAT_MAX_LENGTH, draftAfterFailedSend } from '@/components/call/chat-state';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';
import type { ChatState } from '@/components/call/useChat';
import { ChatText } from '@/components/call/ChatText';

/**
 * The chat panel: your own messages at the right in the accent colour, addresses as links
 * (ChatText). Messages are text nodes and anchors only: nothing in a message is rendered as HTML.
 */
export function ChatPanel({ chat, selfExternalUserId }: { chat: ChatState; selfExternalUserId: string | null }) {
  const t = useT();
  const [draft, setDraft] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const end = useRef<HTMLLIElement>(null);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [chat.messages.length]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const text = draft.trim();
    if (!text || busy) return;
    if (text.length > CHAT_MAX_LENGTH) return setNotice(t.chat.tooLong(CHAT_MAX_LENGTH));
    setBusy(true);
    setDraft('');
    try {
      await chat.send(text);
      setNotice(null);
    } catch (err) {
      setDraft((typed) => draftAfterFailedSend(typed, text));
      setNotice((err as Error).message || t.chat.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex h-full min-h-0 flex-col gap-3">
      {!chat.loaded && !chat.failed && <p>{t.panels.loading}</p>}
      {chat.failed && <p role="status">{t.panels.loadFailed}</p>}
      {chat.loaded && chat.messages.length === 0 && <p className="text-slate-300">{t.chat.empty}</p>}
      <ul
        role="log"
        aria-label={t.chat.log}
        aria-live="polite"
        data-testid="chat-messages"
        className="min-h-0 flex-1 space-y-2 overflow-y-auto"
      >
        {chat.messages.map((m) => {
          const mine = selfExternalUserId !== null && m.senderExternalUserId === selfExternalUserId;
          return (
            // One's own messages at the right in the accent colour, the others' at the left.
            <li
              key={m.id}
              data-testid="chat-message"
              data-mine={mine}
              className={`max-w-[85%] rounded-lg px-2.5 py-1.5 [overflow-wrap:break-word] ${mine ? 'ml-auto bg-sky-800' : 'mr-auto bg-slate-800'}`}
            >
              <span className="font-semibold">{mine ? t.chat.you : m.senderName}</span>
              {m.toExternalUserId && (
                <span className="text-slate-300">
                  {' '}
                  (
                  {m.toExternalUserId === selfExternalUserId
                    ? t.chat.privateFrom
                    : t.chat.privateTo(m.toExternalUserId)}
                  )
                </span>
              )}{' '}
              <time dateTime={m.createdAt} className="text-xs text-slate-300">
                {new Date(m.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
              </time>
              <p className="whitespace-pre-wrap">
                <ChatText text={m.text} />
              </p>
            </li>
          );
        })}
        <li ref={end} aria-hidden="true" />
      </ul>
      <form onSubmit={submit} className="flex gap-2">
        <label className="sr-only" htmlFor="convene-chat-input">
          {t.chat.messageLabel}
        </label>
        <input
          id="convene-chat-input"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          maxLength={CHAT_MAX_LENGTH}
          placeholder={t.chat.placeholder}
          autoComplete="off"
          className={`min-w-0 flex-1 rounded bg-slate-800 px-2 py-1 text-white placeholder:text-slate-400 ${focusRing}`}
        />
        <button
          type="submit"
          disabled={busy || !draft.trim()}
          className={`rounded bg-sky-700 px-3 py-1 font-medium text-white disabled:opacity-60 ${focusRing}`}
        >
          {t.chat.send}
        </button>
      </form>
      {notice && <p role="status">{notice}</p>}
    </div>
  );
}

/** E2EE rooms: LiveKit's own chat (peer-to-peer on the encrypted data channel) stays; this says so. */
export function EncryptedChatNote() {
  const t = useT();
  return <p data-testid="chat-e2ee-note">{t.chat.e2eeNote}</p>;
}
