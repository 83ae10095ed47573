import type { Participant, Poll, PollOption, PollVote, Room, Tenant } from '@/lib/generated/prisma/client';
import { pageArgs, toPage, type PageQuery } from '@/lib/domain/pagination';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { forbidden, invalidState, notFound, validationFailed } from '@/lib/errors';
import { findRoom } from '@/lib/domain/rooms';
import { isActiveMember, isModeratorRole, requireModerator } from '@/lib/domain/participants';
import { broadcast } from '@/lib/domain/live-updates';
import { LIVE_TOPICS } from '@/lib/live-topics';
import type { publicPollCreateInput, PollResponse } from '@/lib/domain/polls.schemas';
import { iso } from '@/lib/domain/time';

/**
 * Polls. States: DRAFT → OPEN → CLOSED (a poll may also be closed from DRAFT). Votes only on OPEN
 * polls. One ballot per voter: with allowMultiple a ballot may pick several options; voting
 * again replaces the voter's ballot. totalVotes counts ballots (voters), option counts count
 * picks. Voters through a participant token are participants of the room; the tenant key may vote
 * for any user of the tenant. An anonymous poll never shows who voted.
 */
type PollWithOptions = Poll & { options: PollOption[]; votes?: PollVote[] };

function pollView(poll: PollWithOptions): PollResponse {
  return {
    id: poll.id,
    roomId: poll.roomId,
    question: poll.question,
    status: poll.status,
    isAnonymous: poll.isAnonymous,
    allowMultiple: poll.allowMultiple,
    totalVotes: poll.totalVotes,
    options: [...poll.options]
      .sort((a, b) => a.order - b.order)
      .map((o) => ({ id: o.id, text: o.text, order: o.order, count: o.count })),
    ...(poll.isAnonymous || !poll.votes
      ? {}
      : { votes: poll.votes.map((v) => ({ optionId: v.optionId, voterExternalId: v.voterExternalId })) }),
    createdByExternalId: poll.createdByExternalId,
    createdAt: poll.createdAt.toISOString(),
    openedAt: iso(poll.openedAt),
    closedAt: iso(poll.closedAt),
  };
}

const withOptions = { options: true, votes: { orderBy: { createdAt: 'asc' as const } } };

/** With roomId (the participant-token path), a poll of another room is 404. */
async function findPoll(tenantId: string, id: string, { tx = db(), roomId }: { tx?: Tx; roomId?: string } = {}) {
  const poll = await tx.poll.findFirst({
    where: { id, tenantId, ...(roomId ? { roomId } : {}) },
    include: withOptions,
  });
  if (!poll) throw notFound('Poll');
  return poll;
}

async function announce(tenant: Tenant, roomId: string, poll: PollWithOptions) {
  const room = await db().room.findUniqueOrThrow({ where: { id: roomId } });
  // Live results are anonymous on the data channel: everyone in the room receives them. A DRAFT
  // is for moderators only, so it goes to the room's hosts and moderators alone.
  const moderators =
    poll.status === 'DRAFT'
      ? (
          await db().participant.findMany({
            where: { roomId, role: { in: ['HOST', 'MODERATOR'] } },
            select: { mediaIdentity: true },
          })
        ).map((p) => p.mediaIdentity)
      : undefined;
  await broadcast({
    tenant,
    room,
    topic: LIVE_TOPICS.polls,
    payload: { type: 'poll.updated', poll: pollView({ ...poll, votes: undefined }) },
    destinationIdentities: moderators,
  });
}

export async function createPoll({
  tenant,
  room,
  creatorExternalId,
  input,
}: {
  tenant: Tenant;
  room: Room;
  creatorExternalId: string;
  input: z.infer<typeof publicPollCreateInput>;
}) {
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  await requireModerator(room.id, creatorExternalId);
  const now = new Date();
  const poll = await db().poll.create({
    data: {
      roomId: room.id,
      tenantId: tenant.id,
      question: input.question,
      isAnonymous: input.isAnonymous,
      allowMultiple: input.allowMultiple,
      status: input.status,
      openedAt: input.status === 'OPEN' ? now : null,
      createdByExternalId: creatorExternalId,
      options: { create: input.options.map((text, order) => ({ text, order })) },
    },
    include: withOptions,
  });
  await announce(tenant, room.id, poll);
  return pollView(poll);
}

export async function createPollForRoom({
  roomId,
  ...poll
}: Omit<Parameters<typeof createPoll>[0], 'room'> & { roomId: string }) {
  return createPoll({ ...poll, room: await findRoom(poll.tenant.id, roomId) });
}

/** A room's polls, newest first, paged; drafts only for the tenant and the room's moderators. */
export async function listPolls({
  tenant,
  roomId,
  page,
  includeDrafts = true,
}: {
  tenant: Tenant;
  roomId: string;
  page: PageQuery;
  includeDrafts?: boolean;
}) {
  await findRoom(tenant.id, roomId);
  const args = pageArgs(page);
  const polls = await db().poll.findMany({
    where: {
      roomId,
      tenantId: tenant.id,
      ...(includeDrafts ? {} : { status: { not: 'DRAFT' as const } }),
      ...args.where,
    },
    include: withOptions,
    orderBy: args.orderBy,
    take: args.take,
  });
  return toPage(polls, page, pollView);
}

/** GET /polls/public: what this participant may see (attendees and viewers never see drafts). */
export async function listPollsForParticipant(
  { tenant, room, participant }: { tenant: Tenant; room: Room; participant: Participant },
  page: PageQuery,
) {
  return listPolls({ tenant, roomId: room.id, page, includeDrafts: isModeratorRole(participant.role) });
}

export async function getPoll(tenant: Tenant, id: string, roomId?: string) {
  return pollView(await findPoll(tenant.id, id, { roomId }));
}

export async function setPollStatus({
  tenant,
  id,
  actorExternalId,
  to,
  roomId,
}: {
  tenant: Tenant;
  id: string;
  actorExternalId: string;
  to: 'OPEN' | 'CLOSED';
  /** The participant-token path: a poll of another room is 404. */
  roomId?: string;
}) {
  const poll = await findPoll(tenant.id, id, { roomId });
  await requireModerator(poll.roomId, actorExternalId);
  const from = to === 'OPEN' ? ['DRAFT'] : ['DRAFT', 'OPEN'];
  const now = new Date();
  const moved = await db().poll.updateMany({
    where: { id: poll.id, status: { in: from as Poll['status'][] } },
    data: to === 'OPEN' ? { status: 'OPEN', openedAt: now } : { status: 'CLOSED', closedAt: now },
  });
  if (moved.count === 0)
    throw invalidState(`The poll is ${poll.status}; it cannot be ${to === 'OPEN' ? 'opened' : 'closed'}.`);
  const updated = await findPoll(tenant.id, id);
  await announce(tenant, updated.roomId, updated);
  return pollView(updated);
}

/**
 * Casts (or replaces) one voter's ballot. The poll row is locked for the whole ballot, so
 * concurrent votes leave exact counts.
 *
 * With `roomId` (the participant-token path) the voter must be an active member of that room.
 * Without it (the tenant key) the tenant's backend vouches for the voter: any voterExternalId of
 * the tenant may vote, e.g. a webinar viewer who watches a stream and votes in the tenant's page.
 */
export async function vote({
  tenant,
  id,
  voterExternalId,
  optionIds,
  roomId,
}: {
  tenant: Tenant;
  id: string;
  voterExternalId: string;
  optionIds: string[];
  roomId?: string;
}) {
  const poll = await db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM "Poll" WHERE id = ${id} AND "tenantId" = ${tenant.id} FOR UPDATE`;
    if (locked.length === 0) throw notFound('Poll');
    const p = await findPoll(tenant.id, id, { tx, roomId });
    if (p.status !== 'OPEN') throw invalidState(`The poll is ${p.status}; votes are accepted only while it is OPEN.`);
    const unique = [...new Set(optionIds)];
    const known = new Set(p.options.map((o) => o.id));
    const unknown = unique.filter((o) => !known.has(o));
    if (unknown.length) throw validationFailed('optionIds', `unknown option ${unknown.join(', ')}`);
    if (!p.allowMultiple && unique.length > 1) throw validationFailed('optionIds', 'this poll allows one option');
    if (roomId) {
      const voter = await tx.participant.findUnique({
        where: { roomId_externalUserId: { roomId: p.roomId, externalUserId: voterExternalId } },
      });
      if (!isActiveMember(voter)) throw forbidden('The voter is not a participant of this room.');
    }
    const previous = p.votes.filter((v) => v.voterExternalId === voterExternalId);
    for (const v of previous)
      await tx.pollOption.update({ where: { id: v.optionId }, data: { count: { decrement: 1 } } });
    await tx.pollVote.deleteMany({ where: { pollId: p.id, voterExternalId } });
    await tx.pollVote.createMany({ data: unique.map((optionId) => ({ pollId: p.id, optionId, voterExternalId })) });
    for (const optionId of unique)
      await tx.pollOption.update({ where: { id: optionId }, data: { count: { increment: 1 } } });
    if (previous.length === 0) await tx.poll.update({ where: { id: p.id }, data: { totalVotes: { increment: 1 } } });
    return findPoll(tenant.id, id, { tx });
  });
  await announce(tenant, poll.roomId, poll);
  return pollView(poll);
}
