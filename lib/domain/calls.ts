import type { Call, CallStatus, Room, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, Prisma, type Tx } from '@/lib/db';
import { invalidState, notFound } from '@/lib/errors';
import { createRoom, findRoom, roomView, roomViews } from '@/lib/domain/rooms';
import { endRoom } from '@/lib/domain/room-end';
import { createParticipant, mintToken, participantView } from '@/lib/domain/participants';
import { emitEvent } from '@/lib/events/outbox';
import type { EventName } from '@/lib/events/catalog';
import type { RoomResponse } from '@/lib/domain/rooms.schemas';
import type {
  callAcceptInput,
  callCreateInput,
  callForwardInput,
  callListQuery,
  callRingInput,
  CallResponse,
} from '@/lib/domain/calls.schemas';
import { iso, secondsBetween } from '@/lib/domain/time';
import { pageArgs, toPage, type ListOrder } from '@/lib/domain/pagination';

/**
 * Call queues. States: QUEUED → RINGING (offered to an agent) → ACCEPTED (a room exists) →
 * ENDED; QUEUED/RINGING → CANCELLED (caller gave up) or MISSED (nobody answered); a forward puts a
 * QUEUED/RINGING call back in the queue for another agent. Every move is a conditional update, so
 * two agents accepting at once get one winner.
 */
const WAITING: CallStatus[] = ['QUEUED', 'RINGING'];

type CallWithRoom = Call & { room: Room | null };

/** Call responses, each with its room as a Room response (the rooms' participants read in one statement). */
async function callViews(
  calls: CallWithRoom[],
  { queuePositions }: { queuePositions: (number | null)[] },
): Promise<CallResponse[]> {
  const views = await roomViews(calls.flatMap((c) => (c.room ? [c.room] : [])));
  const rooms = new Map(views.map((r) => [r.id, r]));
  return calls.map((c, i) =>
    callView(c, { room: c.room ? rooms.get(c.room.id)! : null, queuePosition: queuePositions[i] }),
  );
}

async function callResponse(call: CallWithRoom, { queuePosition }: { queuePosition: number | null }) {
  const [view] = await callViews([call], { queuePositions: [queuePosition] });
  return view;
}

function callView(
  call: Call,
  { room, queuePosition }: { room: RoomResponse | null; queuePosition: number | null },
): CallResponse {
  return {
    id: call.id,
    tenantId: call.tenantId,
    roomId: call.roomId,
    callerExternalId: call.callerExternalId,
    callerDisplayName: call.callerDisplayName,
    callerMetadata: call.callerMetadata,
    targetExternalId: call.targetExternalId,
    targetDisplayName: call.targetDisplayName,
    queueName: call.queueName,
    priority: call.priority,
    skills: call.skills,
    status: call.status,
    ringingExternalId: call.ringingExternalId,
    acceptedByExternalId: call.acceptedByExternalId,
    acceptedByDisplayName: call.acceptedByDisplayName,
    forwardedToExternalId: call.forwardedToExternalId,
    forwardedByExternalId: call.forwardedByExternalId,
    queuedAt: call.queuedAt.toISOString(),
    ringingAt: iso(call.ringingAt),
    answeredAt: iso(call.answeredAt),
    endedAt: iso(call.endedAt),
    cancelledAt: iso(call.cancelledAt),
    waitDuration: call.waitDuration,
    callDuration: call.callDuration,
    externalId: call.externalId,
    externalMetadata: call.externalMetadata,
    notes: call.notes,
    createdAt: call.createdAt.toISOString(),
    updatedAt: call.updatedAt.toISOString(),
    queuePosition,
    room,
  };
}

type CallEventName = Extract<EventName, `call.${string}`>;

const withRoom = { room: true } as const;

async function emitCall(call: Call, name: CallEventName, { tx }: { tx: Tx }) {
  await emitEvent({
    tx,
    tenantId: call.tenantId,
    name,
    data: {
      callId: call.id,
      queueName: call.queueName,
      status: call.status,
      callerExternalId: call.callerExternalId,
      ...(call.ringingExternalId ? { agentExternalId: call.ringingExternalId } : {}),
      ...(call.acceptedByExternalId ? { acceptedByExternalId: call.acceptedByExternalId } : {}),
      ...(call.roomId ? { roomId: call.roomId } : {}),
      waitDuration: call.waitDuration,
      callDuration: call.callDuration,
    },
  });
}

export async function createCall(tenant: Tenant, input: z.infer<typeof callCreateInput>) {
  const call = await db().$transaction(async (tx) => {
    const created = await tx.call.create({
      data: {
        tenantId: tenant.id,
        callerExternalId: input.callerExternalId,
        callerDisplayName: input.callerDisplayName,
        callerMetadata: (input.callerMetadata as Prisma.InputJsonValue | null | undefined) ?? undefined,
        targetExternalId: input.targetExternalId ?? null,
        targetDisplayName: input.targetDisplayName ?? null,
        queueName: input.queueName,
        priority: input.priority,
        skills: input.skills,
        externalId: input.externalId ?? null,
        externalMetadata: (input.externalMetadata as Prisma.InputJsonValue | null | undefined) ?? undefined,
        notes: input.notes ?? null,
      },
    });
    await emitCall(created, 'call.queued', { tx });
    return created;
  });
  return callView(call, { room: null, queuePosition: await queuePosition(call) });
}

/** 1-based position among the waiting calls of the same queue: priority first, then age. */
async function queuePosition(call: Call): Promise<number | null> {
  if (!WAITING.includes(call.status)) return null;
  const ahead = await db().call.count({
    where: {
      tenantId: call.tenantId,
      queueName: call.queueName,
      status: { in: WAITING },
      OR: [
        { priority: { gt: call.priority } },
        { priority: call.priority, queuedAt: { lt: call.queuedAt } },
        { priority: call.priority, queuedAt: call.queuedAt, id: { lt: call.id } },
      ],
    },
  });
  return ahead + 1;
}

async function findCall(tenantId: string, id: string, { tx = db() }: { tx?: Tx } = {}) {
  const call = await tx.call.findFirst({ where: { id, tenantId } });
  if (!call) throw notFound('Call');
  return call;
}

export async function getCall(tenant: Tenant, id: string) {
  const call = await db().call.findFirst({ where: { id, tenantId: tenant.id }, include: withRoom });
  if (!call) throw notFound('Call');
  return callResponse(call, { queuePosition: await queuePosition(call) });
}

/** "Next up" order: priority (high first), then queuedAt (oldest first). */
const NEXT_UP: ListOrder = {
  keys: [
    { field: 'priority', direction: 'desc', type: 'int' },
    { field: 'queuedAt', direction: 'asc', type: 'date' },
    { field: 'id', direction: 'asc', type: 'string' },
  ],
};

export async function listCalls(tenant: Tenant, query: z.infer<typeof callListQuery>) {
  const args = pageArgs(query, NEXT_UP);
  const skills = query.skills
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const rows = await db().call.findMany({
    where: {
      tenantId: tenant.id,
      ...(query.queueName ? { queueName: query.queueName } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.targetExternalId ? { targetExternalId: query.targetExternalId } : {}),
      ...(skills?.length ? { skills: { hasEvery: skills } } : {}),
      ...args.where,
    },
    include: withRoom,
    orderBy: args.orderBy,
    take: args.take,
  });
  const page = toPage(rows, query, (c) => c, { order: NEXT_UP });
  const queuePositions = await Promise.all(page.data.map(queuePosition));
  return { ...page, data: await callViews(page.data, { queuePositions }) };
}

/** A state move guarded by the current state: only one concurrent caller can make it. */
async function transition({
  tx,
  tenantId,
  id,
  from,
  data,
}: {
  tx: Tx;
  tenantId: string;
  id: string;
  from: CallStatus[];
  data: Prisma.CallUpdateManyMutationInput;
}) {
  const moved = await tx.call.updateMany({ where: { id, tenantId, status: { in: from } }, data });
  if (moved.count === 0) {
    const current = await findCall(tenantId, id, { tx });
    throw invalidState(`The call is ${current.status}; this action needs ${from.join(' or ')}.`);
  }
  return tx.call.findUniqueOrThrow({ where: { id }, include: withRoom });
}

export async function ringCall({
  tenant,
  id,
  input,
  now = new Date(),
}: {
  tenant: Tenant;
  id: string;
  input: z.infer<typeof callRingInput>;
  now?: Date;
}) {
  const call = await db().$transaction(async (tx) => {
    const c = await transition({
      tx,
      tenantId: tenant.id,
      id,
      from: WAITING,
      data: {
        status: 'RINGING',
        ringingAt: now,
        ringingExternalId: input.agentExternalId,
      },
    });
    await emitCall(c, 'call.ringing', { tx });
    return c;
  });
  return callResponse(call, { queuePosition: await queuePosition(call) });
}

/**
 * Accept: the call moves to ACCEPTED and a CALL room is created with the caller (ATTENDEE) and
 * the agent (HOST) in one transaction; tokens for both are returned. A second accept is 409.
 */
export async function acceptCall({
  tenant,
  id,
  input,
  now = new Date(),
}: {
  tenant: Tenant;
  id: string;
  input: z.infer<typeof callAcceptInput>;
  now?: Date;
}) {
  const { call, room, caller, agent } = await db().$transaction(async (tx) => {
    const current = await findCall(tenant.id, id, { tx });
    await transition({
      tx,
      tenantId: tenant.id,
      id,
      from: WAITING,
      data: {
        status: 'ACCEPTED',
        answeredAt: now,
        acceptedByExternalId: input.acceptedByExternalId,
        acceptedByDisplayName: input.acceptedByDisplayName,
        waitDuration: secondsBetween(current.queuedAt, now),
      },
    });
    const room = await createRoom({
      tenant,
      input: { name: `Call ${current.queueName}`, createdByExternalId: input.acceptedByExternalId, maxParticipants: 2 },
      type: 'CALL',
      tx,
      now,
    });
    const seat = (externalUserId: string, displayName: string, role: 'HOST' | 'ATTENDEE') =>
      createParticipant({
        tx,
        room,
        externalUserId,
        role,
        data: { displayName, connectionState: 'PENDING', tokenIssuedAt: now },
      });
    const caller = await seat(current.callerExternalId, current.callerDisplayName, 'ATTENDEE');
    const agent = await seat(input.acceptedByExternalId, input.acceptedByDisplayName, 'HOST');
    const call = await tx.call.update({ where: { id }, data: { roomId: room.id }, include: withRoom });
    await emitCall(call, 'call.accepted', { tx });
    return { call, room, caller, agent };
  });
  const callerCredentials = await mintToken({ tenant, room, participant: caller });
  const agentCredentials = await mintToken({ tenant, room, participant: agent });
  const roomResponse = roomView(room, [caller, agent]);
  return {
    call: callView(call, { room: roomResponse, queuePosition: null }),
    room: roomResponse,
    callerToken: callerCredentials.token,
    agentToken: agentCredentials.token,
    callerJoinUrl: callerCredentials.joinUrl,
    agentJoinUrl: agentCredentials.joinUrl,
    mediaUrl: callerCredentials.mediaUrl,
    participants: { caller: participantView(caller), agent: participantView(agent) },
  };
}

/** Forward: a waiting call goes back to the queue, targeted at another agent. */
export async function forwardCall(tenant: Tenant, id: string, input: z.infer<typeof callForwardInput>) {
  const call = await db().$transaction(async (tx) => {
    const c = await transition({
      tx,
      tenantId: tenant.id,
      id,
      from: WAITING,
      data: {
        status: 'QUEUED',
        forwardedByExternalId: input.forwardedByExternalId,
        forwardedToExternalId: input.forwardedToExternalId,
        targetExternalId: input.forwardedToExternalId,
        ...(input.targetDisplayName ? { targetDisplayName: input.targetDisplayName } : {}),
        ringingAt: null,
        ringingExternalId: null,
      },
    });
    await emitCall(c, 'call.forwarded', { tx });
    return c;
  });
  return callResponse(call, { queuePosition: await queuePosition(call) });
}

export async function cancelCall(tenant: Tenant, id: string, now = new Date()) {
  return closeWaiting(tenant, id, { status: 'CANCELLED', now });
}

export async function missCall(tenant: Tenant, id: string, now = new Date()) {
  return closeWaiting(tenant, id, { status: 'MISSED', now });
}

async function closeWaiting(
  tenant: Tenant,
  id: string,
  { status, now }: { status: 'CANCELLED' | 'MISSED'; now: Date },
) {
  const call = await db().$transaction(async (tx) => {
    const current = await findCall(tenant.id, id, { tx });
    const c = await transition({
      tx,
      tenantId: tenant.id,
      id,
      from: WAITING,
      data: {
        status,
        endedAt: now,
        ...(status === 'CANCELLED' ? { cancelledAt: now } : {}),
        waitDuration: secondsBetween(current.queuedAt, now),
      },
    });
    await emitCall(c, status === 'CANCELLED' ? 'call.cancelled' : 'call.missed', { tx });
    return c;
  });
  return callResponse(call, { queuePosition: null });
}

/** End an accepted call: its room is ended too (media room deleted first). */
export async function endCall(tenant: Tenant, id: string, now = new Date()) {
  const current = await findCall(tenant.id, id);
  if (current.status !== 'ACCEPTED')
    throw invalidState(`The call is ${current.status}; only an ACCEPTED call can be ended (cancel a waiting one).`);
  if (current.roomId) {
    const room = await findRoom(tenant.id, current.roomId);
    if (room.status !== 'ENDED') await endRoom(tenant, room.id, now);
  }
  const call = await db().$transaction(async (tx) => {
    const c = await transition({
      tx,
      tenantId: tenant.id,
      id,
      from: ['ACCEPTED'],
      data: {
        status: 'ENDED',
        endedAt: now,
        callDuration: secondsBetween(current.answeredAt, now),
      },
    });
    await emitCall(c, 'call.ended', { tx });
    return c;
  });
  return callResponse(call, { queuePosition: null });
}
