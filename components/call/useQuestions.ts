'use client';

import { useCallback, useState } from 'react';
import { QUESTION_TOPIC, mergeQuestion } from '@/components/call/engagement-state';
import type { ParticipantApi, QuestionResponse } from '@/components/call/participant-api';
import { useLiveList } from '@/components/call/useLiveList';
import type { LiveMessageBody } from '@/lib/live-messages';

const questionOf = (body: LiveMessageBody<typeof QUESTION_TOPIC>): QuestionResponse => body.question;

/**
 * The room's questions through the participant-token API (/api/v1/questions/public): loaded
 * once, kept current from `convene.questions` data-channel messages, re-read after a reconnect
 * and after the viewer's own actions. Upvotes count once per person (the server enforces it);
 * the ones given in this session are remembered to show the button as pressed.
 */
export function useQuestions(api: ParticipantApi) {
  const load = useCallback(async () => (await api('GET', '/questions/public?sort=upvotes&limit=100')).data, [api]);
  const { items: questions, failed, refresh, apply } = useLiveList(load, QUESTION_TOPIC, questionOf, mergeQuestion);
  const [upvoted, setUpvoted] = useState<ReadonlySet<string>>(new Set());
  const markUpvoted = useCallback((id: string) => setUpvoted((s) => new Set(s).add(id)), []);
  return { questions, failed, refresh, apply, upvoted, markUpvoted };
}

export type QuestionsState = ReturnType<typeof useQuestions>;
