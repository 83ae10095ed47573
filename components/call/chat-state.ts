/**
 * Pure state for the call UI's chat panel: reading a data-channel message, and merging messages
 * from history, the send answer and the live relay into one ordered, de-duplicated list. No
 * React, no fetch: test/ui/chat-state.test.ts covers it.
 */

import type { ChatMessageResponse } from '@/components/call/participant-api';
import { LIVE_TOPICS } from '@/lib/live-topics';

// The server's own limit (its schema module imports only zod, already in the call UI's bundle).
export { CHAT_MAX_LENGTH } from '@/lib/domain/chat.schemas';
export const CHAT_TOPIC = LIVE_TOPICS.chat;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A convene.chat message ({type: 'chat.message', message}); anything else is null. */
export function parseChatUpdate(topic: string | undefined, payload: Uint8Array): ChatMessageResponse | null {
  if (topic !== CHAT_TOPIC) return null;
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return null;
  }
  if (!isObject(body) || body.type !== 'chat.message' || !isObject(body.message)) return null;
  const m = body.message;
  if (
    typeof m.id !== 'string' ||
    typeof m.text !== 'string' ||
    typeof m.createdAt !== 'string' ||
    typeof m.senderName !== 'string'
  )
    return null;
  return m as unknown as ChatMessageResponse;
}

/** Oldest first (the server's order), ties by id; one entry per id. */
export function mergeMessages(
  list: readonly ChatMessageResponse[],
  incoming: readonly ChatMessageResponse[],
): ChatMessageResponse[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.createdAt < b.createdAt ? -1 : 1,
  );
}
