import { z } from 'zod';
import { named, timestamp } from '@/lib/domain/shared.schemas';

/** Chat: inputs and response shapes (see docs/chat.md). */

export { CHAT_MAX_LENGTH } from '@/lib/domain/chat-limits';
import { CHAT_MAX_LENGTH } from '@/lib/domain/chat-limits';
/** A sender may post at most CHAT_RATE_MESSAGES within CHAT_RATE_WINDOW_SECONDS. */
export const CHAT_RATE_MESSAGES = 10;
export const CHAT_RATE_WINDOW_SECONDS = 10;

export const chatSendInput = z.strictObject({
  text: z
    .string()
    .max(CHAT_MAX_LENGTH * 2)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(CHAT_MAX_LENGTH, `at most ${CHAT_MAX_LENGTH} characters`)
        .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    )
    .describe(`Plain text, 1–${CHAT_MAX_LENGTH} characters after trimming. Never interpreted as HTML or markdown.`),
  toExternalUserId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('A direct message to one participant of the room (by your user id); omit to write to the room.'),
});

export const chatHistoryQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe('nextCursor of a previous answer: only messages after it. Without it, the latest `limit` messages.'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const chatExportQuery = z.object({
  sessionId: z.string().max(100).optional().describe('Only the messages of this session.'),
});

export const chatMessageResponse = named(
  'ChatMessage',
  "A chat message, stored by Convene and relayed live on the data channel (topic convene.chat). Plain text: render it as text, never as HTML. End-to-end encrypted rooms store no chat (403 FEATURE_DISABLED): chat stays peer-to-peer on the encrypted data channel. There is no chat.message webhook: subscribe to room.session.ended and export the session's chat.",
  z.object({
    id: z.string().describe('Unique; the call UI de-duplicates on it.'),
    roomId: z.string(),
    sessionId: z.string().nullable().describe('The room session live when it was sent.'),
    senderParticipantId: z.string(),
    senderExternalUserId: z.string(),
    senderName: z.string(),
    toParticipantId: z.string().nullable().describe('Set on a direct message.'),
    toExternalUserId: z.string().nullable(),
    text: z.string(),
    createdAt: timestamp,
  }),
);

export const chatHistoryResponse = named(
  'ChatHistory',
  'Messages the participant may read (to the room, and its own direct messages), oldest first.',
  z.object({
    data: z.array(chatMessageResponse),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as cursor to read what follows; null only when the room has no messages yet.'),
    hasMore: z.boolean().describe('More messages follow the cursor right now.'),
  }),
);

export const chatExportResponse = named(
  'ChatExport',
  "A room's stored chat, oldest first, direct messages included.",
  z.object({
    roomId: z.string(),
    sessionId: z.string().nullable(),
    exportedAt: timestamp,
    messages: z.array(chatMessageResponse),
  }),
);

export const chatDeletedResponse = named(
  'ChatDeleted',
  "How many of the room's messages were deleted.",
  z.object({ roomId: z.string(), deleted: z.int().nonnegative() }),
);
