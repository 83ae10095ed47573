'use client';

import { useState } from 'react';
import dynamic from 'next/dynamic';
import { useParticipants } from '@livekit/components-react';
import { useT } from '@/components/call/useT';
import { useCall } from '@/components/call/call-context';
import type { IconName } from '@/components/call/icons';
import { HostPanel } from '@/components/call/HostPanel';
import { usePolls } from '@/components/call/usePolls';
import { useQuestions } from '@/components/call/useQuestions';
import { useChat } from '@/components/call/useChat';
import { KnockSoundToggle } from '@/components/call/KnockSoundToggle';
import { useChatToasts } from '@/components/call/useChatToasts';
import { usePollToasts } from '@/components/call/usePollToasts';

// A panel's view loads when it is first opened (PanelDock); its state (above) is kept from the start.
const PeoplePanel = dynamic(() => import('@/components/call/PeoplePanel').then((m) => m.PeoplePanel), { ssr: false });
const ChatPanel = dynamic(() => import('@/components/call/ChatPanel').then((m) => m.ChatPanel), { ssr: false });
const EncryptedChatNote = dynamic(() => import('@/components/call/ChatPanel').then((m) => m.EncryptedChatNote), {
  ssr: false,
});
const PollsPanel = dynamic(() => import('@/components/call/PollsPanel').then((m) => m.PollsPanel), { ssr: false });
const QuestionsPanel = dynamic(() => import('@/components/call/QuestionsPanel').then((m) => m.QuestionsPanel), {
  ssr: false,
});

export interface CallPanel {
  key: 'host' | 'people' | 'polls' | 'questions' | 'chat';
  /** The panel's heading and region name. */
  title: string;
  /** The word on its button (the title, or a short form of it: "Q&A"). */
  word: string;
  /** The button's accessible name, with what its count means ("Host controls (2 waiting)"). */
  label: string;
  icon: IconName;
  /** A number shown as a pill on the button (people in the call, waiting guests, unread messages…). */
  count?: number;
  /** The pill in red: something waits for this person. */
  urgent?: boolean;
  body: React.ReactNode;
  /** The body is there while the panel is closed (the host panel counts who waits); the others mount when first opened. */
  alwaysMounted?: boolean;
}

/**
 * The call's panels in the order their buttons show: host controls (hosts and moderators, per
 * GET /api/v1/me), people, chat, polls, Q&A — each with its live state, kept while closed so the
 * buttons can count and toasts can say what arrived. A panel's view is code of its own, fetched
 * when the panel first opens: a person who never opens polls never downloads them.
 */
export function useCallPanels(): CallPanel[] {
  const t = useT();
  const { api, self, info, panel, togglePanel } = useCall();
  const people = useParticipants().filter((p) => !p.isAgent).length;
  const polls = usePolls(api);
  const questions = useQuestions(api);
  // Chat through the API (stored, history on reload); in E2EE rooms LiveKit's peer-to-peer chat stays.
  const serverChat = info.facts.enableChat && !info.facts.enableE2EE;
  const chat = useChat(api, serverChat, panel === 'chat');
  const [waiting, setWaiting] = useState(0);
  useChatToasts(chat, panel === 'chat', self?.externalUserId ?? null, () => togglePanel('chat'));
  usePollToasts(polls.polls, panel === 'polls', () => togglePanel('polls'));

  const openPolls = polls.polls?.filter((p) => p.status === 'OPEN').length ?? 0;
  const openQuestions = questions.questions?.filter((q) => q.status === 'OPEN').length ?? 0;
  return [
    ...(self?.isModerator
      ? [
          {
            key: 'host' as const,
            title: t.host.title,
            word: t.host.title,
            label: t.panels.hostToggle(waiting),
            icon: 'shield' as const,
            count: waiting || undefined,
            urgent: true,
            alwaysMounted: true,
            body: (
              <>
                <HostPanel onWaitingCount={setWaiting} />
                <div className="mt-3">
                  <KnockSoundToggle />
                </div>
              </>
            ),
          },
        ]
      : []),
    {
      key: 'people',
      title: t.people.title,
      word: t.people.title,
      label: t.panels.peopleToggle(people),
      icon: 'people',
      count: people,
      body: <PeoplePanel self={{ name: info.name, role: info.facts.role }} api={api} moderator={!!self?.isModerator} />,
    },
    ...(info.facts.enableChat
      ? [
          {
            key: 'chat' as const,
            title: t.chat.title,
            word: t.chat.title,
            label: t.chat.toggle(chat.unread),
            icon: 'chat' as const,
            count: chat.unread || undefined,
            urgent: true,
            body: serverChat ? (
              <ChatPanel chat={chat} selfExternalUserId={self?.externalUserId ?? null} />
            ) : (
              <EncryptedChatNote />
            ),
          },
        ]
      : []),
    {
      key: 'polls',
      title: t.polls.title,
      word: t.polls.title,
      label: t.panels.pollsToggle(openPolls),
      icon: 'poll',
      count: openPolls || undefined,
      body: <PollsPanel state={polls} api={api} self={self} />,
    },
    {
      key: 'questions',
      title: t.questions.title,
      word: t.panels.questionsShort,
      label: t.panels.questionsToggle(openQuestions),
      icon: 'question',
      count: openQuestions || undefined,
      body: <QuestionsPanel state={questions} api={api} self={self} />,
    },
  ];
}
