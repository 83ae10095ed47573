'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_TOPIC, mergeMessages } from '@/components/call/chat-state';
import type { ChatMessageResponse, ParticipantApi } from '@/components/call/participant-api';
import { useLiveMessages } from '@/components/call/useLiveList';
import { useRoomLoad } from '@/components/call/useRoomLoad';
import type { LiveMessage } from '@/lib/live-messages';

/**
 * The conversation through the API (docs/chat.md): the latest messages on load, what followed the
 * cursor after a (re)connect, each message the server relays live on convene.chat merged in (a
 * peer's packet on that topic is never shown: lib/live-messages.ts), and sends by POST — one list
 * ordered by time and de-duplicated by id (the send answer and its relay are the same message). `enabled` is false in E2EE rooms: nothing is read or stored there.
 */
export function useChat(api: ParticipantApi, enabled: boolean, visible: boolean) {
  const [messages, setMessages] = useState<ChatMessageResponse[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [seen, setSeen] = useState(0);
  const cursor = useRef<string | null>(null);

  const load = useCallback(async () => {
    if (!enabled) return;
    for (let i = 0; i < 20; i++) {
      const page = await api(
        'GET',
        `/chat/messages${cursor.current ? `?cursor=${encodeURIComponent(cursor.current)}` : ''}`,
      );
      setMessages((list) => mergeMessages(list, page.data));
      cursor.current = page.nextCursor;
      if (!page.hasMore) break;
    }
    setLoaded(true);
  }, [api, enabled]);
  const { failed, reload } = useRoomLoad(load);

  const onMessage = useCallback(
    ({ body }: LiveMessage<typeof CHAT_TOPIC>) => setMessages((list) => mergeMessages(list, [body.message])),
    [],
  );
  useLiveMessages(CHAT_TOPIC, onMessage, reload);

  // What was already said when the call opened is history, not new: only later messages count as unread.
  const baseline = useRef(false);
  useEffect(() => {
    if (visible || (loaded && !baseline.current)) setSeen(messages.length);
    if (loaded) baseline.current = true;
  }, [visible, loaded, messages.length]);

  const send = useCallback(
    async (text: string) => {
      const message = await api('POST', '/chat/messages', { text });
      setMessages((list) => mergeMessages(list, [message]));
    },
    [api],
  );

  return { messages, loaded, failed, send, unread: visible ? 0 : Math.max(0, messages.length - seen) };
}

export type ChatState = ReturnType<typeof useChat>;
