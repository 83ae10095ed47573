import type { ConnectionState, Participant, ParticipantRole, Room, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, Prisma, sql, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { constantTimeEqual, randomBase62, sha256Hex } from '@/lib/crypto';
import { ApiError, forbidden, invalidState, notFound } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { resolveLimits } from '@/lib/domain/plans';
import { mediaFor } from '@/lib/domain/media';
import { emitEvent, newEventId } from '@/lib/events/outbox';
import { currentRunner } from '@/lib/events/runner';
import {
  findRoom,
  newRowId,
  reopenRoomIn,
  ROOM_PARTICIPANTS_LIMIT,
  roomFromJson,
  roomView,
  roomViewWithParticipants,
} from '@/lib/domain/rooms';
import type { JoinInput } from '@/lib/domain/rooms.schemas';
import type {
  ParticipantResponse,
  ParticipantUpdateInput,
  participantListQuery,
} from '@/lib/domain/participants.schemas';
import { isMediaNotFound, type ParticipantGrants, type PublishSource } from '@/lib/media';
import type { Language } from '@/lib/i18n/languages';
import { iso } from '@/lib/domain/time';
import { tokenMetadata } from '@/lib/domain/join-token';
import { knownRoomSnapshot, rememberRoomSnapshot } from '@/lib/domain/room-snapshots';

const DEFAULT_TOKEN_TTL_SECONDS = 6 * 60 * 60;
/** A participant handed a token holds a seat this long without connecting; then it is freed. */
const UNCONNECTED_SEAT_HOLD_MS = 10 * 60 * 1000;

const MODERATOR_ROLES: ParticipantRole[] = ['HOST', 'MODERATOR'];
export const isModeratorRole = (role: ParticipantRole) => MODERATOR_ROLES.includes(role);

/** Permissions a role starts with; PATCH may change them afterwards. */
function defaultPermissions(role: ParticipantRole) {
  return {
    canPublish: role !== 'VIEWER',
    canSubscribe: true,
    canPublishData: true,
    canScreenShare: role !== 'VIEWER',
    canRecord: role === 'HOST',
  };
}

export function participantView(p: Participant): ParticipantResponse {
  return {
    id: p.id,
    roomId: p.roomId,
    externalUserId: p.externalUserId,
    displayName: p.displayName,
    avatarUrl: p.avatarUrl,
    mediaIdentity: p.mediaIdentity,
    mediaSid: p.mediaSid,
    role: p.role,
    canPublish: p.canPublish,
    canSubscribe: p.canSubscribe,
    canPublishData: p.canPublishData,
    canScreenShare: p.canScreenShare,
    canRecord: p.canRecord,
    isApproved: p.isApproved,
    approvedBy: p.approvedBy,
    connectionState: p.connectionState,
    joinedAt: iso(p.joinedAt),
    leftAt: iso(p.leftAt),
    duration: p.duration,
    rejoinCount: p.rejoinCount,
    externalRole: p.externalRole,
    externalMetadata: p.externalMetadata,
    breakoutId: p.breakoutId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/**
 * A participant as the participant itself reads it (participant token, admission secret):
 * externalMetadata is the tenant's own correlation data (a CRM note), never shown there: null.
 */
export function participantSelfView(p: Participant): ParticipantResponse {
  return { ...participantView(p), externalMetadata: null };
}

function grantsFor(participant: Participant, room: Room): ParticipantGrants {
  const sources: PublishSource[] = [];
  if (participant.canPublish) {
    sources.push('camera', 'microphone');
    if (participant.canScreenShare && room.enableScreenShare) sources.push('screen_share', 'screen_share_audio');
  }
  return {
    canPublish: participant.canPublish && sources.length > 0,
    canSubscribe: participant.canSubscribe,
    canPublishData: participant.canPublishData && room.enableChat,
    canPublishSources: sources,
  };
}

export async function mintToken({
  tenant,
  room,
  participant,
  ttlSeconds = DEFAULT_TOKEN_TTL_SECONDS,
  lang,
}: {
  tenant: Tenant;
  room: Room;
  participant: Participant;
  ttlSeconds?: number;
  /** The hosted UI's language, carried in the join URL. */
  lang?: Language;
}) {
  const media = mediaFor(tenant);
  const token = await media.mintParticipantToken({
    identity: participant.mediaIdentity,
    name: participant.displayName,
    roomName: await mediaRoomOf(participant, room),
    ttlSeconds,
    metadata: tokenMetadata(participant, room),
    grants: grantsFor(participant, room),
  });
  const joinUrl = `${config().PUBLIC_BASE_URL}/join?token=${encodeURIComponent(token)}&url=${encodeURIComponent(media.url)}${lang ? `&lang=${lang}` : ''}`;
  return { token, mediaUrl: media.url, joinUrl };
}

/** The media room a participant is in: their open breakout's, else the room's. */
export async function mediaRoomOf(participant: Pick<Participant, 'breakoutId'>, room: Room) {
  if (!participant.breakoutId) return room.mediaRoomName;
  const breakout = await db().breakout.findFirst({
    where: { id: participant.breakoutId, roomId: room.id, status: 'OPEN' },
  });
  return breakout?.mediaRoomName ?? room.mediaRoomName;
}

/** The seat rule, as SQL over participants `p`: approved, and connected or handed a token within the hold. */
function holdsSeatSql(now: Date) {
  const holdSince = new Date(now.getTime() - UNCONNECTED_SEAT_HOLD_MS).toISOString();
  return Prisma.sql`p."isApproved" AND (p."connectionState" = 'CONNECTED' OR (p."connectionState" = 'PENDING' AND p."tokenIssuedAt" > ${holdSince}::timestamptz AT TIME ZONE 'UTC'))`;
}

type SeatQuestion = { tx: Tx; tenant: Tenant; room: Room; externalUserId: string; now: Date };

/**
 * Whether a seat is free for this user. The room's participant rows ever inserted
 * (RoomParticipantRows, kept by a trigger) bound the seats taken: while they are fewer than the
 * cap a seat is free without counting, so a waiting room or an approval in a room of thousands
 * reads one row, not the room; only from there on are the others' seats counted. Under the room
 * lock (FOR UPDATE: every join into the room has committed) the bound is exact.
 */
async function seatFree({ tx, tenant, room, externalUserId, now }: SeatQuestion) {
  const cap = seatCap(tenant, room);
  const [{ rows }] = await tx.$queryRaw<{ rows: number }[]>`
    SELECT coalesce(sum("count"), 0)::int AS rows FROM "RoomParticipantRows" WHERE "roomId" = ${room.id}`;
  if (rows < cap) return true;
  const [{ taken }] = await tx.$queryRaw<{ taken: number }[]>`
    SELECT count(*)::int AS taken FROM "Participant" p
    WHERE p."roomId" = ${room.id} AND p."externalUserId" <> ${externalUserId} AND ${holdsSeatSql(now)}`;
  return taken < cap;
}

/** Refuses with ROOM_FULL unless a seat is free for this user (seatFree). */
export async function assertSeatFree(question: SeatQuestion) {
  if (!(await seatFree(question))) throw roomFull(seatCap(question.tenant, question.room));
}

async function lockRoom(tenantId: string, roomId: string, { tx }: { tx: Tx }): Promise<Room> {
  // The locked row itself (one round trip): the column names are the model's field names.
  const [room] = await tx.$queryRaw<
    Room[]
  >`SELECT * FROM "Room" WHERE id = ${roomId} AND "tenantId" = ${tenantId} FOR UPDATE`;
  if (!room) throw notFound('Room');
  return room;
}

/**
 * The transactional join's reads: the room row, locked (joins into it wait here, so the cap
 * holds); then, in a statement that starts after the lock is held, this user's participant row
 * if any, through the (roomId, externalUserId) unique index whatever the statistics say
 * (convene_participant_of). Seats are counted later, only if it comes to that (assertSeatFree).
 */
async function lockRoomForJoin({
  tx,
  tenantId,
  roomId,
  externalUserId,
}: {
  tx: Tx;
  tenantId: string;
  roomId: string;
  externalUserId: string;
}) {
  const room = await lockRoom(tenantId, roomId, { tx });
  const [existing] = await tx.$queryRaw<
    { id: string; connectionState: ConnectionState; isApproved: boolean; role: ParticipantRole }[]
  >`
    SELECT id, "connectionState"::text AS "connectionState", "isApproved", role::text AS role
    FROM convene_participant_of(${room.id}, ${externalUserId})`;
  return { room, existing: existing ?? null };
}

function seatCap(tenant: Tenant, room: Room): number {
  return Math.min(room.maxParticipants, resolveLimits(tenant.plan, tenant.entitlementOverrides).maxParticipantsPerRoom);
}

// The join's refusals, the same from the one-statement path and the transactional one.
const roomFull = (cap: number) => new ApiError('ROOM_FULL', `The room is full (${cap} participants).`);
const roomLocked = () => new ApiError('ROOM_LOCKED', 'The room is locked.');
const refused = () => forbidden('This participant was refused entry to the room.');
const tooEarly = (opensAt: Date) =>
  new ApiError('TOO_EARLY', `This room opens for joining at ${opensAt.toISOString()}.`);

/** A scheduled room opens for joining the tenant's join window before it starts. */
function joinOpensAt(scheduledAt: Date, tenant: Pick<Tenant, 'joinWindowMinutes'>) {
  return new Date(scheduledAt.getTime() - tenant.joinWindowMinutes * 60_000);
}

type Entry = 'open' | 'locked' | 'full' | 'ended' | 'removed' | 'denied';

/**
 * Whether a participant who already holds a token can go in now: what the hosted call UI asks
 * before it connects, so a person reads "locked" or "full" instead of a media error. The join's
 * own rules: a removed participant, or one refused from the waiting room, never comes back; an
 * ended room is over; a participant holding a seat (connected, or let in by a join
 * or an admission within the hold) uses it; anyone else is stopped by a lock (hosts and
 * moderators excepted) and needs a free seat.
 */
export async function entryFor({
  tenant,
  room,
  participant,
  now = new Date(),
}: {
  tenant: Tenant;
  room: Room;
  participant: Participant;
  now?: Date;
}): Promise<Entry> {
  if (isTurnedAway(participant)) return participant.connectionState === 'REMOVED' ? 'removed' : 'denied';
  if (room.status === 'ENDED') return 'ended';
  const [{ held }] = await db().$queryRaw<
    { held: boolean }[]
  >`SELECT EXISTS (SELECT 1 FROM "Participant" p WHERE p.id = ${participant.id} AND ${holdsSeatSql(now)}) AS held`;
  if (held) return 'open';
  if (room.isLocked && !isModeratorRole(participant.role)) return 'locked';
  return (await seatFree({ tx: db(), tenant, room, externalUserId: participant.externalUserId, now }))
    ? 'open'
    : 'full';
}

function newAdmissionSecret() {
  const secret = `adm_${randomBase62(32)}`;
  return { secret, hash: sha256Hex(secret) };
}

function admissionUrl({
  roomId,
  participantId,
  secret,
  lang,
}: {
  roomId: string;
  participantId: string;
  secret: string;
  lang?: Language;
}) {
  // The secret travels in the fragment, so it never reaches a server log.
  return `${config().PUBLIC_BASE_URL}/join/waiting?room=${encodeURIComponent(roomId)}&participant=${encodeURIComponent(participantId)}${lang ? `&lang=${lang}` : ''}#${secret}`;
}

const PARTICIPANT_DATES = ['joinedAt', 'leftAt', 'tokenIssuedAt', 'createdAt', 'updatedAt'] as const;

/** A participant row as PostgreSQL's to_jsonb gives it (timestamps in UTC without a zone) → the Prisma shape. */
function participantFromJson(row: Record<string, unknown>): Participant {
  const out: Record<string, unknown> = { ...row };
  for (const f of PARTICIPANT_DATES) out[f] = row[f] == null ? null : new Date(`${row[f] as string}Z`);
  return out as unknown as Participant;
}

/** A join request: who (input) joins which room of which tenant, at what time. */
export interface Join {
  tenant: Tenant;
  roomId: string;
  input: JoinInput;
  now: Date;
}

type FastJoin =
  | {
      outcome: 'ok';
      participant: Record<string, unknown>;
      roomVersion: string;
      /** Absent when the caller already holds roomVersion (lib/domain/room-snapshots.ts). */
      room?: Record<string, unknown>;
      participants?: Record<string, unknown>[];
    }
  | {
      outcome: 'waiting';
      participant: Record<string, unknown>;
      roomVersion: string;
      room?: Record<string, unknown>;
      participants?: Record<string, unknown>[];
    }
  | { outcome: 'too_early'; room: Record<string, unknown> }
  | { outcome: 'full'; cap: number }
  | { outcome: 'not_found' | 'locked' | 'refused' | 'slow' };

/**
 * The join's write path as ONE statement (the convene_join function, migrations
 * room_participants_read, room_participant_rows_in_shares and join_reads_by_key): read the room
 * by its primary key alone (a plan kept from when the tenant had few rooms cannot walk the
 * tenant's rooms), lock the room row (shared while the room is
 * more than 8 rows from its cap, so joins into one room run side by side; exclusive near it),
 * apply the rules below in the same order, count seats only when the room has as many
 * participant rows as its cap, find or create the participant through the (roomId,
 * externalUserId) unique index (INSERT ... ON CONFLICT: no lookup whose plan could read the
 * whole room). The room lock is held for that one statement, not across round trips. A user
 * the waiting room must hold is parked there by the same statement, participant.waiting written
 * with it on the first park (migration waiting_room_join_one_statement). What it leaves to the
 * transactional path ('slow'): reopening an ENDED room (it changes more than the join's rows),
 * and a shared join that finds the room filled to within 8 rows of its cap while it waited
 * (decided there alone, counting exactly).
 */
async function fastJoin(join: Join, knownRoomVersion: string | null, admissionHash: string): Promise<FastJoin> {
  const { rows } = await sql().query<{ r: FastJoin }>(joinStatement(join, knownRoomVersion, admissionHash));
  return rows[0].r;
}

/** The join's one statement and its parameters (exported for the tests that count what it reads). */
export function joinStatement(
  { tenant, roomId, input, now }: Join,
  knownRoomVersion: string | null = null,
  admissionHash: string | null = null,
) {
  const profile: Record<string, unknown> = { displayName: input.displayName };
  if (input.avatarUrl !== undefined) profile.avatarUrl = input.avatarUrl;
  if (input.externalRole !== undefined) profile.externalRole = input.externalRole;
  if (input.externalMetadata !== undefined) profile.externalMetadata = input.externalMetadata;
  const planCap = Math.min(
    resolveLimits(tenant.plan, tenant.entitlementOverrides).maxParticipantsPerRoom,
    2_147_483_647,
  );
  // A named statement: each pooled connection parses and plans it once, not on every join.
  return {
    name: 'convene_join',
    text: `SELECT convene_join($1, $2, $3, $4::"ParticipantRole", $5, $6::timestamptz AT TIME ZONE 'UTC', $7::timestamptz AT TIME ZONE 'UTC', $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15, $16, $17, $18) AS r`,
    values: [
      tenant.id,
      roomId,
      input.externalUserId,
      input.role,
      isModeratorRole(input.role),
      now.toISOString(),
      new Date(now.getTime() - UNCONNECTED_SEAT_HOLD_MS).toISOString(),
      planCap,
      tenant.joinWindowMinutes,
      newRowId(),
      `p_${randomBase62(20)}`,
      JSON.stringify(profile),
      JSON.stringify(defaultPermissions(input.role)),
      ROOM_PARTICIPANTS_LIMIT,
      knownRoomVersion,
      // Used only if the user is parked in the waiting room: its admission secret's hash, the ids
      // of participant.waiting and of its delivery.
      admissionHash,
      newEventId(),
      newRowId(),
    ],
  };
}

/**
 * Join: the room lock, the seat cap and the waiting room hold under concurrency because the room
 * row is locked for the whole decision. HOST and MODERATOR bypass the lock and the waiting room.
 * The media layer is not called: the token is signed locally (after the lock is released) and
 * LiveKit creates the room on first connect.
 */
export async function joinRoom({ now = new Date(), ...request }: Omit<Join, 'now'> & { now?: Date }) {
  const join = { ...request, now };
  const { tenant, input } = join;
  const known = knownRoomSnapshot(join.roomId);
  const admission = newAdmissionSecret();
  const fast = await fastJoin(join, known?.version ?? null, admission.hash);
  switch (fast.outcome) {
    case 'waiting': {
      currentRunner()?.wake(); // participant.waiting is in the outbox (first park): deliver it now
      const { view } = fast.room ? snapshotOf(join.roomId, fast) : known!;
      const participant = participantFromJson(fast.participant);
      return {
        token: null,
        mediaUrl: null,
        joinUrl: null,
        waitingForApproval: true,
        admissionUrl: admissionUrl({
          roomId: join.roomId,
          participantId: participant.id,
          secret: admission.secret,
          lang: input.lang,
        }),
        participant: participantView(participant),
        room: view,
      };
    }
    case 'ok': {
      // No room in the answer: the database found it unchanged since `known` was made.
      const { room, view } = fast.room ? snapshotOf(join.roomId, fast) : known!;
      const participant = participantFromJson(fast.participant);
      const credentials = await mintToken({
        tenant,
        room,
        participant,
        ttlSeconds: input.ttlSeconds,
        lang: input.lang,
      });
      return {
        ...credentials,
        waitingForApproval: false,
        participant: participantView(participant),
        room: view,
      };
    }
    case 'not_found':
      throw notFound('Room');
    case 'too_early':
      throw tooEarly(joinOpensAt(roomFromJson(fast.room).scheduledAt!, tenant));
    case 'locked':
      throw roomLocked();
    case 'refused':
      throw refused();
    case 'full':
      throw roomFull(fast.cap);
    case 'slow':
      return joinRoomInTransaction(join);
  }
}

function snapshotOf(
  roomId: string,
  { roomVersion, room, participants = [] }: Extract<FastJoin, { outcome: 'ok' | 'waiting' }>,
) {
  const row = roomFromJson(room!);
  return rememberRoomSnapshot(roomId, {
    version: roomVersion,
    room: row,
    view: roomView(row, participants.map(participantFromJson)),
  });
}

/** The join as an interactive transaction: an ENDED room to reopen (and then perhaps a waiting room to park in). */
async function joinRoomInTransaction({ tenant, roomId, input, now }: Join) {
  const outcome = await db().$transaction(async (tx) => {
    const locked = await lockRoomForJoin({ tx, tenantId: tenant.id, roomId, externalUserId: input.externalUserId });
    const { existing } = locked;
    let room = locked.room;
    const privileged = isModeratorRole(input.role);
    if (room.scheduledAt && !privileged) {
      const opensAt = joinOpensAt(room.scheduledAt, tenant);
      if (now < opensAt) throw tooEarly(opensAt);
    }
    if (room.isLocked && !privileged) throw roomLocked();
    if (room.status === 'ENDED') room = await reopenRoomIn(room, { tx });

    if (existing && isTurnedAway(existing)) throw refused();
    const profile = {
      displayName: input.displayName,
      role: input.role,
      ...(input.avatarUrl !== undefined ? { avatarUrl: input.avatarUrl } : {}),
      ...(input.externalRole !== undefined ? { externalRole: input.externalRole } : {}),
      ...(input.externalMetadata !== undefined
        ? { externalMetadata: (input.externalMetadata as Prisma.InputJsonValue | null) ?? Prisma.DbNull }
        : {}),
    };
    const mustWait = room.enableWaitingRoom && !privileged && !(existing?.isApproved ?? false);
    if (mustWait) {
      const { secret, hash } = newAdmissionSecret();
      const firstPark = existing?.connectionState !== 'WAITING';
      const parked = { connectionState: 'WAITING' as const, isApproved: false, admissionSecretHash: hash };
      const participant = existing
        ? await tx.participant.update({ where: { id: existing.id }, data: { ...profile, ...parked } })
        : await createParticipant({
            tx,
            room,
            externalUserId: input.externalUserId,
            role: input.role,
            data: { ...profile, ...parked },
          });
      if (firstPark) {
        await emitEvent({
          tx,
          tenantId: tenant.id,
          name: 'participant.waiting',
          data: { roomId: room.id, participantId: participant.id, externalUserId: participant.externalUserId },
        });
      }
      return {
        room,
        participant,
        waiting: true as const,
        admission: admissionUrl({ roomId: room.id, participantId: participant.id, secret, lang: input.lang }),
      };
    }

    await assertSeatFree({ tx, tenant, room, externalUserId: input.externalUserId, now });
    const participant = existing
      ? await tx.participant.update({
          where: { id: existing.id },
          data: {
            ...profile,
            ...(existing.role !== input.role ? defaultPermissions(input.role) : {}),
            rejoinCount: { increment: 1 },
            tokenIssuedAt: now,
            connectionState: existing.connectionState === 'CONNECTED' ? 'CONNECTED' : 'PENDING',
          },
        })
      : await createParticipant({
          tx,
          room,
          externalUserId: input.externalUserId,
          role: input.role,
          data: { ...profile, tokenIssuedAt: now },
        });
    return { room, participant, waiting: false as const };
  });

  if (outcome.waiting) {
    return {
      token: null,
      mediaUrl: null,
      joinUrl: null,
      waitingForApproval: true,
      admissionUrl: outcome.admission,
      participant: participantView(outcome.participant),
      room: await roomViewWithParticipants(outcome.room),
    };
  }
  const credentials = await mintToken({
    tenant,
    room: outcome.room,
    participant: outcome.participant,
    ttlSeconds: input.ttlSeconds,
    lang: input.lang,
  });
  return {
    ...credentials,
    waitingForApproval: false,
    participant: participantView(outcome.participant),
    room: await roomViewWithParticipants(outcome.room),
  };
}

/** A new participant row: the role's default permissions and a random media identity (never the user's own id). */
export function createParticipant({
  tx,
  room,
  externalUserId,
  role,
  data,
}: {
  tx: Tx;
  room: Pick<Room, 'id' | 'tenantId'>;
  externalUserId: string;
  role: ParticipantRole;
  data: Omit<
    Prisma.ParticipantUncheckedCreateInput,
    'roomId' | 'tenantId' | 'externalUserId' | 'role' | 'mediaIdentity'
  >;
}) {
  return tx.participant.create({
    data: {
      ...defaultPermissions(role),
      ...data,
      roomId: room.id,
      tenantId: room.tenantId,
      externalUserId,
      role,
      mediaIdentity: `p_${randomBase62(20)}`,
    },
  });
}

export async function findParticipant(
  tenantId: string,
  roomId: string,
  participantId: string,
  { tx = db() }: { tx?: Tx } = {},
) {
  const participant = await tx.participant.findFirst({ where: { id: participantId, roomId, tenantId } });
  if (!participant) throw notFound('Participant');
  return participant;
}

/** In the call, or handed a token to join it: someone with a hand, tracks, a tile to spotlight. */
export function isInCall(p: Pick<Participant, 'connectionState'>): boolean {
  return p.connectionState === 'CONNECTED' || p.connectionState === 'PENDING';
}

/** Removed by a host or refused from the waiting room: such a participant does not come back. */
export function isTurnedAway(p: Pick<Participant, 'connectionState'>): boolean {
  return p.connectionState === 'REMOVED' || p.connectionState === 'DENIED';
}

/** Who may vote, ask and upvote: a participant of the room not turned away and not still waiting. */
export function isActiveMember(p: Pick<Participant, 'connectionState'> | null): p is Participant {
  return !!p && !isTurnedAway(p) && p.connectionState !== 'WAITING';
}

/** Moderator actions: the acting user must be a HOST or MODERATOR of the room in OUR database. */
export async function requireModerator(roomId: string, externalUserId: string, { tx = db() }: { tx?: Tx } = {}) {
  const actor = await tx.participant.findUnique({ where: { roomId_externalUserId: { roomId, externalUserId } } });
  if (!actor || !isModeratorRole(actor.role) || isTurnedAway(actor)) {
    throw forbidden('The acting user is not a host or moderator of this room.');
  }
  return actor;
}

/** A moderator's decision on someone in the waiting room. */
interface WaitingDecision {
  tenant: Tenant;
  roomId: string;
  participantId: string;
  actingExternalUserId: string;
}

/** Approve and deny start alike: the room locked, the actor one of its moderators, the participant WAITING. */
async function lockWaitingParticipant(
  { tenant, roomId, participantId, actingExternalUserId }: WaitingDecision,
  { tx }: { tx: Tx },
) {
  const room = await lockRoom(tenant.id, roomId, { tx });
  await requireModerator(room.id, actingExternalUserId, { tx });
  const participant = await findParticipant(tenant.id, room.id, participantId, { tx });
  if (participant.connectionState !== 'WAITING')
    throw invalidState(`Participant is ${participant.connectionState}, not WAITING.`);
  return { room, participant };
}

export async function approveParticipant({ now = new Date(), ...decision }: WaitingDecision & { now?: Date }) {
  const participant = await db().$transaction(async (tx) => {
    const { room, participant: p } = await lockWaitingParticipant(decision, { tx });
    await assertSeatFree({ tx, tenant: decision.tenant, room, externalUserId: p.externalUserId, now });
    return tx.participant.update({
      where: { id: p.id },
      data: {
        isApproved: true,
        approvedBy: decision.actingExternalUserId,
        connectionState: 'PENDING',
        tokenIssuedAt: now,
      },
    });
  });
  return participantView(participant);
}

export async function denyParticipant(decision: WaitingDecision) {
  const participant = await db().$transaction(async (tx) => {
    const { participant: p } = await lockWaitingParticipant(decision, { tx });
    // The admission secret stays valid for reading: the waiting page learns it was refused (it grants nothing else).
    return tx.participant.update({
      where: { id: p.id },
      data: { isApproved: false, approvedBy: decision.actingExternalUserId, connectionState: 'DENIED' },
    });
  });
  return participantView(participant);
}

/**
 * The admission poll. Authorised by the tenant key or by the participant's own admission secret
 * (what the hosted waiting page holds). Returns a fresh token once approved.
 */
export async function admissionStatus({
  tenant,
  roomId,
  participantId,
  admissionSecret,
}: {
  /** Null on the waiting page, which holds the admission secret instead. */
  tenant: Tenant | null;
  roomId: string;
  participantId: string;
  admissionSecret: string | null;
}) {
  const participant = await db().participant.findFirst({
    where: { id: participantId, roomId, ...(tenant ? { tenantId: tenant.id } : {}) },
    include: { room: { include: { tenant: true } } },
  });
  if (!participant) throw notFound('Participant');
  if (!tenant) {
    const valid =
      !!admissionSecret &&
      !!participant.admissionSecretHash &&
      constantTimeEqual(sha256Hex(admissionSecret), participant.admissionSecretHash);
    if (!valid) throw notFound('Participant'); // never confirm the id exists to a wrong secret
  }
  const { room, ...rest } = participant;
  // The waiting page (admission secret) never reads the tenant's externalMetadata.
  const view = (tenant ? participantView : participantSelfView)(rest as Participant);
  const status =
    participant.connectionState === 'WAITING'
      ? 'waiting'
      : participant.connectionState === 'DENIED'
        ? 'denied'
        : participant.isApproved
          ? 'approved'
          : 'waiting';
  const roomName = room.name;
  if (status !== 'approved') return { status, roomName, token: null, mediaUrl: null, joinUrl: null, participant: view };
  const credentials = await mintToken({ tenant: room.tenant, room, participant: rest as Participant });
  return { status, roomName, ...credentials, participant: view };
}

export async function getParticipant(tenant: Tenant, roomId: string, participantId: string) {
  await findRoom(tenant.id, roomId);
  return participantView(await findParticipant(tenant.id, roomId, participantId));
}

export async function listParticipants(tenant: Tenant, roomId: string, query: z.infer<typeof participantListQuery>) {
  await findRoom(tenant.id, roomId);
  const page = pageArgs(query);
  const rows = await db().participant.findMany({
    where: {
      roomId,
      tenantId: tenant.id,
      ...(query.connectionState ? { connectionState: query.connectionState } : {}),
      ...page.where,
    },
    orderBy: page.orderBy,
    take: page.take,
  });
  return toPage(rows, query, participantView);
}

/**
 * Role and permission changes. A connected participant's new grants and metadata are pushed to
 * the media layer first; if that fails nothing is written.
 */
export async function updateParticipant({
  tenant,
  roomId,
  participantId,
  input,
}: {
  tenant: Tenant;
  roomId: string;
  participantId: string;
  input: ParticipantUpdateInput;
}) {
  const room = await findRoom(tenant.id, roomId);
  const current = await findParticipant(tenant.id, roomId, participantId);
  const next: Participant = { ...current, ...input };
  if (current.connectionState === 'CONNECTED') {
    await mediaFor(tenant).updateParticipant(room.mediaRoomName, current.mediaIdentity, {
      metadata: tokenMetadata(next, room),
      grants: grantsFor(next, room),
    });
  }
  return participantView(await db().participant.update({ where: { id: current.id }, data: input }));
}

/** Kick: disconnects the participant in the media layer, then marks it REMOVED (it cannot rejoin). */
export async function removeParticipant(tenant: Tenant, roomId: string, participantId: string) {
  const room = await findRoom(tenant.id, roomId);
  const participant = await findParticipant(tenant.id, roomId, participantId);
  if (participant.connectionState === 'REMOVED') return participantView(participant);
  // PENDING too: a browser may have connected before the media layer's participant_joined reached us.
  if (participant.connectionState === 'CONNECTED' || participant.connectionState === 'PENDING') {
    try {
      await mediaFor(tenant).removeParticipant(await mediaRoomOf(participant, room), participant.mediaIdentity);
    } catch (err) {
      // Not there is fine; for one we never saw connect, an unreachable media layer is no reason to refuse.
      if (!isMediaNotFound(err) && participant.connectionState === 'CONNECTED') throw err;
    }
  }
  const now = new Date();
  const updated = await db().participant.update({
    where: { id: participant.id },
    data: {
      connectionState: 'REMOVED',
      isApproved: false,
      admissionSecretHash: null,
      ...(participant.connectionState === 'CONNECTED' ? { leftAt: now } : {}),
    },
  });
  return participantView(updated);
}

/** Mutes every non-moderator's audio in the media layer. Acting user: HOST or MODERATOR. */
export async function muteAll(tenant: Tenant, roomId: string, actingExternalUserId: string) {
  const room = await findRoom(tenant.id, roomId);
  await requireModerator(room.id, actingExternalUserId);
  const moderators = await db().participant.findMany({
    where: { roomId: room.id, role: { in: MODERATOR_ROLES } },
    select: { mediaIdentity: true },
  });
  let mutedTracks = 0;
  try {
    mutedTracks = await mediaFor(tenant).muteAllAudio(
      room.mediaRoomName,
      new Set(moderators.map((m) => m.mediaIdentity)),
    );
  } catch (err) {
    if (!isMediaNotFound(err)) throw err; // nobody has connected yet: nothing to mute
  }
  return { roomId: room.id, mutedTracks };
}
