import type { Question, Room, Tenant } from '@/lib/generated/prisma/client';
import { db } from '@/lib/db';
import { forbidden, invalidState, notFound } from '@/lib/errors';
import { NEWEST_FIRST, pageArgs, toPage, type ListOrder, type PageQuery } from '@/lib/domain/pagination';
import { findRoom } from '@/lib/domain/rooms';
import { isActiveMember, requireModerator } from '@/lib/domain/participants';
import { broadcast } from '@/lib/domain/live-updates';
import { LIVE_TOPICS } from '@/lib/live-topics';
import { iso } from '@/lib/domain/time';
import type { QuestionResponse } from '@/lib/domain/questions.schemas';

/**
 * Q&A. States: OPEN → ANSWERED (host answers) or DISMISSED (host dismisses; an answered question
 * may also be dismissed). Upvotes: once per user, OPEN questions only; upvoting again is a no-op
 * that returns the question unchanged.
 */
function questionView(q: Question): QuestionResponse {
  return {
    id: q.id,
    roomId: q.roomId,
    text: q.text,
    status: q.status,
    askerExternalId: q.askerExternalId,
    askerName: q.askerName,
    upvoteCount: q.upvoteCount,
    answerText: q.answerText,
    answeredByExternalId: q.answeredByExternalId,
    answeredAt: iso(q.answeredAt),
    dismissedByExternalId: q.dismissedByExternalId,
    dismissedAt: iso(q.dismissedAt),
    createdAt: q.createdAt.toISOString(),
  };
}

async function announce(tenant: Tenant, question: Question) {
  const room = await db().room.findUniqueOrThrow({ where: { id: question.roomId } });
  await broadcast({
    tenant,
    room,
    topic: LIVE_TOPICS.questions,
    payload: { type: 'question.updated', question: questionView(question) },
  });
}

async function requireParticipant(roomId: string, externalUserId: string) {
  const p = await db().participant.findUnique({ where: { roomId_externalUserId: { roomId, externalUserId } } });
  if (!isActiveMember(p)) {
    throw forbidden('This user is not a participant of the room.');
  }
  return p;
}

async function findQuestion(tenantId: string, id: string, roomId?: string) {
  const q = await db().question.findFirst({ where: { id, tenantId, ...(roomId ? { roomId } : {}) } });
  if (!q) throw notFound('Question');
  return q;
}

export async function askQuestion(
  tenant: Tenant,
  room: Room,
  input: { text: string; askerExternalId: string; askerName?: string },
) {
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  const asker = await requireParticipant(room.id, input.askerExternalId);
  const q = await db().question.create({
    data: {
      roomId: room.id,
      tenantId: tenant.id,
      text: input.text,
      askerExternalId: input.askerExternalId,
      askerName: input.askerName ?? asker.displayName,
    },
  });
  await announce(tenant, q);
  return questionView(q);
}

export async function askQuestionInRoom(
  tenant: Tenant,
  roomId: string,
  input: { text: string; askerExternalId: string; askerName?: string },
) {
  return askQuestion(tenant, await findRoom(tenant.id, roomId), input);
}

/** Most upvoted first, then oldest first; its cursors are tagged, so a recent-order cursor is not read as one. */
const MOST_UPVOTED_FIRST: ListOrder = {
  tag: 'u',
  keys: [
    { field: 'upvoteCount', direction: 'desc', type: 'int' },
    { field: 'createdAt', direction: 'asc', type: 'date' },
    { field: 'id', direction: 'asc', type: 'string' },
  ],
};

/**
 * A room's questions, paged like every list (?limit=, ?cursor=). sort=recent: newest first;
 * sort=upvotes: MOST_UPVOTED_FIRST.
 */
export async function listQuestions(
  tenant: Tenant,
  roomId: string,
  query: PageQuery & { sort: 'upvotes' | 'recent'; status?: Question['status'] },
) {
  await findRoom(tenant.id, roomId);
  const base = { roomId, tenantId: tenant.id, ...(query.status ? { status: query.status } : {}) };
  const order = query.sort === 'recent' ? NEWEST_FIRST : MOST_UPVOTED_FIRST;
  const args = pageArgs(query, order);
  const rows = await db().question.findMany({
    where: { ...base, ...args.where },
    orderBy: args.orderBy,
    take: args.take,
  });
  return toPage(rows, query, questionView, { order });
}

export async function getQuestion(tenant: Tenant, id: string) {
  return questionView(await findQuestion(tenant.id, id));
}

export async function upvoteQuestion({
  tenant,
  id,
  voterExternalId,
  roomId,
}: {
  tenant: Tenant;
  id: string;
  voterExternalId: string;
  /** The participant-token path: a question of another room is 404. */
  roomId?: string;
}) {
  const q = await findQuestion(tenant.id, id, roomId);
  if (q.status !== 'OPEN') throw invalidState(`The question is ${q.status}; only OPEN questions can be upvoted.`);
  await requireParticipant(q.roomId, voterExternalId);
  const updated = await db().$transaction(async (tx) => {
    // The unique (question, voter) pair makes a second upvote a no-op, also under concurrency.
    const inserted = await tx.questionUpvote.createMany({
      data: [{ questionId: q.id, voterExternalId }],
      skipDuplicates: true,
    });
    return inserted.count
      ? tx.question.update({ where: { id: q.id }, data: { upvoteCount: { increment: 1 } } })
      : tx.question.findUniqueOrThrow({ where: { id: q.id } });
  });
  await announce(tenant, updated);
  return questionView(updated);
}

/**
 * Host action. The actor must be a HOST or MODERATOR of the question's room in our records. With
 * roomId (participant token), a question of another room is 404. answerText may be omitted
 * ("answered live").
 */
export async function answerQuestion({
  tenant,
  id,
  input,
  roomId,
}: {
  tenant: Tenant;
  id: string;
  input: { answerText?: string | null; answeredByExternalId: string };
  roomId?: string;
}) {
  const q = await findQuestion(tenant.id, id, roomId);
  await requireModerator(q.roomId, input.answeredByExternalId);
  const moved = await db().question.updateMany({
    where: { id: q.id, status: 'OPEN' },
    data: {
      status: 'ANSWERED',
      answerText: input.answerText ?? null,
      answeredByExternalId: input.answeredByExternalId,
      answeredAt: new Date(),
    },
  });
  if (moved.count === 0) throw invalidState(`The question is ${q.status}; only OPEN questions can be answered.`);
  const updated = await findQuestion(tenant.id, id);
  await announce(tenant, updated);
  return questionView(updated);
}

/** Host action, as answerQuestion: moderator per our records; with roomId, another room's question is 404. */
export async function dismissQuestion({
  tenant,
  id,
  actorExternalId,
  roomId,
}: {
  tenant: Tenant;
  id: string;
  actorExternalId: string;
  roomId?: string;
}) {
  const q = await findQuestion(tenant.id, id, roomId);
  await requireModerator(q.roomId, actorExternalId);
  const moved = await db().question.updateMany({
    where: { id: q.id, status: { in: ['OPEN', 'ANSWERED'] } },
    data: { status: 'DISMISSED', dismissedByExternalId: actorExternalId, dismissedAt: new Date() },
  });
  if (moved.count === 0) throw invalidState('The question was already dismissed.');
  const updated = await findQuestion(tenant.id, id);
  await announce(tenant, updated);
  return questionView(updated);
}
