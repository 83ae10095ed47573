/**
 * Pure state for the call UI's chat panel: merging messages from history, the send answer and the
 * live relay (read by lib/live-topics.ts) into one ordered, de-duplicated list, and the draft
 * around a send. No React, no fetch: test/ui/chat-state.test.ts covers it.
 */

import type { ChatMessageResponse } from '@/components/call/participant-api';
import { LIVE_TOPICS } from '@/lib/live-topics';

// The server's own limit (its schema module imports only zod, already in the call UI's bundle).
export { CHAT_MAX_LENGTH } from '@/lib/domain/chat-limits';
export const CHAT_TOPIC = LIVE_TOPICS.chat;

/**
 * Oldest first (the server's order), ties by id; one entry per id. A stored message never changes,
 * so the first copy of an id stays: a later one, whoever sent it, cannot rewrite it.
 */
export function mergeMessages(
  list: readonly ChatMessageResponse[],
  incoming: readonly ChatMessageResponse[],
): ChatMessageResponse[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of incoming) if (!byId.has(m.id)) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.createdAt < b.createdAt ? -1 : 1,
  );
}

/**
 * The input is emptied as a message is sent, so the next one can be typed meanwhile; when the send
 * fails, its text comes back in front of whatever was typed since, so nothing typed is lost.
 */
export function draftAfterFailedSend(current: string, sent: string): string {
  return current.trim() ? `${sent} ${current}` : sent;
}
