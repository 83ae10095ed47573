import type { ChatMessage, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db } from '@/lib/db';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { config } from '@/lib/config';
import { limiterFor } from '@/lib/rate-limiter';
import { ApiError, forbidden, invalidState, notFound, rateLimited, validationFailed } from '@/lib/errors';
import type { ParticipantCredential } from '@/lib/domain/me';
import { toCsv } from '@/lib/domain/csv';
import { isActiveMember } from '@/lib/domain/participants';
import { broadcast } from '@/lib/domain/live-updates';
import {
  CHAT_RATE_MESSAGES,
  CHAT_RATE_WINDOW_SECONDS,
  type chatExportQuery,
  type chatHistoryQuery,
  type chatMessageResponse,
  type chatSendInput,
} from '@/lib/domain/chat.schemas';
import { LIVE_TOPICS } from '@/lib/live-topics';

/**
 * Chat through the API. The server stores each message and relays it live on the media layer's
 * data channel (topic convene.chat, {type: 'chat.message', message}); the call UI merges the
 * history it reads with what arrives live and de-duplicates on the message id.
 *
 * Rules: the room must have enableChat and must not be end-to-end encrypted (there chat stays
 * peer-to-peer on the encrypted data channel and the server stores none: FEATURE_DISABLED); the
 * sender needs canPublishData and must be an active member (not removed, refused or waiting); the
 * room must not have ended; at most CHAT_RATE_MESSAGES per CHAT_RATE_WINDOW_SECONDS per sender.
 * Messages older than RETENTION_DAYS are deleted by the lifecycle job.
 */
const EXPORT_MAX = 10_000;

type ChatMessageView = z.input<typeof chatMessageResponse>;

function chatMessageView(m: ChatMessage): ChatMessageView {
  return {
    id: m.id,
    roomId: m.roomId,
    sessionId: m.sessionId,
    senderParticipantId: m.senderParticipantId,
    senderExternalUserId: m.senderExternalId,
    senderName: m.senderName,
    toParticipantId: m.toParticipantId,
    toExternalUserId: m.toExternalId,
    text: m.text,
    createdAt: m.createdAt.toISOString(),
  };
}

function assertChatAllowed(room: { enableChat: boolean; enableE2EE: boolean }) {
  if (room.enableE2EE) {
    throw new ApiError(
      'FEATURE_DISABLED',
      'This room is end-to-end encrypted: chat stays peer-to-peer on the encrypted data channel and Convene stores none.',
    );
  }
  if (!room.enableChat) throw new ApiError('FEATURE_DISABLED', 'Chat is disabled in this room (enableChat is false).');
}

const cursorOf = (seq: number) => Buffer.from(`chat:${seq}`).toString('base64url');
function seqOf(cursor: string): number {
  const m = /^chat:(\d{1,12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw validationFailed('cursor', 'not a cursor returned by this API');
  return Number(m[1]);
}

export async function sendChatMessage(
  { tenant, room, participant }: ParticipantCredential,
  input: z.output<typeof chatSendInput>,
) {
  assertChatAllowed(room);
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  if (!isActiveMember(participant)) throw forbidden('Only a participant admitted to the room may chat.');
  if (!participant.canPublishData) throw forbidden('This participant may not send data (canPublishData is false).');

  let recipient = null;
  if (input.toExternalUserId !== undefined) {
    if (input.toExternalUserId === participant.externalUserId)
      throw validationFailed('toExternalUserId', 'cannot be the sender');
    recipient = await db().participant.findUnique({
      where: { roomId_externalUserId: { roomId: room.id, externalUserId: input.toExternalUserId } },
    });
    if (!isActiveMember(recipient)) throw notFound('Participant');
  }

  // An atomic counter per sender, not a count of stored rows: concurrent sends cannot all see room.
  const spent = await limiterFor(CHAT_RATE_MESSAGES, CHAT_RATE_WINDOW_SECONDS)
    .consume(`chat:${participant.id}`)
    .catch((over: unknown) => {
      if (over instanceof RateLimiterRes) return over;
      throw over; // the store failed
    });
  if (spent.consumedPoints > CHAT_RATE_MESSAGES)
    throw rateLimited({
      retryAfterMs: spent.msBeforeNext,
      message: `Too many messages: at most ${CHAT_RATE_MESSAGES} per ${CHAT_RATE_WINDOW_SECONDS} s.`,
    });

  const session = await db().roomSession.findFirst({
    where: { roomId: room.id, endedAt: null },
    orderBy: { startedAt: 'desc' },
    select: { id: true },
  });
  const message = await db().chatMessage.create({
    data: {
      tenantId: tenant.id,
      roomId: room.id,
      sessionId: session?.id ?? null,
      senderParticipantId: participant.id,
      senderExternalId: participant.externalUserId,
      senderName: participant.displayName,
      toParticipantId: recipient?.id ?? null,
      toExternalId: recipient?.externalUserId ?? null,
      text: input.text,
    },
  });
  const view = chatMessageView(message);
  await broadcast({
    tenant,
    room,
    topic: LIVE_TOPICS.chat,
    payload: { type: 'chat.message', message: view },
    destinationIdentities: recipient ? [participant.mediaIdentity, recipient.mediaIdentity] : undefined,
  });
  return view;
}

/** What the participant may read after the cursor (or the latest `limit`), oldest first. */
export async function chatHistory(
  { room, participant }: ParticipantCredential,
  query: z.output<typeof chatHistoryQuery>,
) {
  assertChatAllowed(room);
  if (!isActiveMember(participant)) throw forbidden('Only a participant admitted to the room may read its chat.');
  const after = query.cursor ? seqOf(query.cursor) : undefined;
  const visible = {
    roomId: room.id,
    OR: [{ toParticipantId: null }, { senderParticipantId: participant.id }, { toParticipantId: participant.id }],
  };
  const rows =
    after !== undefined
      ? await db().chatMessage.findMany({
          where: { ...visible, seq: { gt: after } },
          orderBy: { seq: 'asc' },
          take: query.limit + 1,
        })
      : (await db().chatMessage.findMany({ where: visible, orderBy: { seq: 'desc' }, take: query.limit })).reverse();
  const hasMore = after !== undefined && rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  return {
    data: page.map(chatMessageView),
    nextCursor: last ? cursorOf(last.seq) : (query.cursor ?? null),
    hasMore,
  };
}

async function tenantRoom(tenant: Tenant, roomId: string) {
  const room = await db().room.findFirst({ where: { id: roomId, tenantId: tenant.id }, select: { id: true } });
  if (!room) throw notFound('Room');
  return room;
}

/** A room's stored chat (direct messages included), oldest first; up to 10,000 messages per export. */
export async function exportChat(tenant: Tenant, roomId: string, query: z.output<typeof chatExportQuery>) {
  await tenantRoom(tenant, roomId);
  const messages = await db().chatMessage.findMany({
    where: { roomId, tenantId: tenant.id, ...(query.sessionId ? { sessionId: query.sessionId } : {}) },
    orderBy: { seq: 'asc' },
    take: EXPORT_MAX,
  });
  return {
    roomId,
    sessionId: query.sessionId ?? null,
    exportedAt: new Date().toISOString(),
    messages: messages.map(chatMessageView),
  };
}

export async function deleteChat(tenant: Tenant, roomId: string) {
  await tenantRoom(tenant, roomId);
  const { count } = await db().chatMessage.deleteMany({ where: { roomId, tenantId: tenant.id } });
  return { roomId, deleted: count };
}

/** Retention: messages older than RETENTION_DAYS are deleted (the lifecycle job calls this in batches). */
export async function pruneChat(
  now = new Date(),
  retentionDays = config().RETENTION_DAYS,
  batch = 500,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await db()
      .$executeRaw`DELETE FROM "ChatMessage" WHERE id = ANY(ARRAY(SELECT id FROM "ChatMessage" WHERE "createdAt" < ${cutoff} ORDER BY "createdAt" LIMIT ${batch}))`;
    total += n;
    if (n < batch) return total;
  }
}

/** A room's chat as CSV (console download), oldest first. */
export async function chatCsv(
  tenant: Tenant,
  roomId: string,
  query: z.output<typeof chatExportQuery> = {},
): Promise<string> {
  const { messages } = await exportChat(tenant, roomId, query);
  return toCsv([
    ['id', 'createdAt', 'sessionId', 'senderExternalUserId', 'senderName', 'toExternalUserId', 'text'],
    ...messages.map((m) => [
      m.id,
      m.createdAt,
      m.sessionId,
      m.senderExternalUserId,
      m.senderName,
      m.toExternalUserId,
      m.text,
    ]),
  ]);
}
