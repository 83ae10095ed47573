import type { Tenant } from '@/lib/generated/prisma/client';
import { db, sql } from '@/lib/db';
import { randomBase62 } from '@/lib/crypto';
import { ApiError, forbidden, notFound } from '@/lib/errors';
import { newEventId, outboxWritten } from '@/lib/events/outbox';
import { ROOM_PARTICIPANTS_LIMIT, roomFromJson, roomView } from '@/lib/domain/rooms';
import { newRowId } from '@/lib/ids';
import type { JoinInput } from '@/lib/domain/rooms.schemas';
import { knownRoomSnapshot, rememberRoomSnapshot } from '@/lib/domain/room-snapshots';
import { defaultPermissions, isModeratorRole } from '@/lib/domain/participants/roles';
import { holdSince, planSeatCap, roomFull } from '@/lib/domain/participants/seats';
import { mintToken } from '@/lib/domain/participants/tokens';
import { participantFromJson, participantView } from '@/lib/domain/participants/views';
import { admissionUrl, newAdmissionSecret } from '@/lib/domain/participants/waiting-room';

/** A join request: who (input) joins which room of which tenant, at what time. */
export interface Join {
  tenant: Tenant;
  roomId: string;
  input: JoinInput;
  now: Date;
}

type Joined = {
  participant: Record<string, unknown>;
  roomVersion: string;
  /** Absent when the caller already holds roomVersion (lib/domain/room-snapshots.ts). */
  room?: Record<string, unknown>;
  participants?: Record<string, unknown>[];
};

/** What convene_join answers (prisma/sql/convene_join.sql). */
type JoinOutcome =
  | ({ outcome: 'ok' | 'waiting' } & Joined)
  | { outcome: 'too_early'; room: Record<string, unknown> }
  | { outcome: 'full'; cap: number }
  | { outcome: 'not_found' | 'locked' | 'refused' | 'slow' | 'ended' };

/** How a call of convene_join may go beyond the common case. */
type JoinMode = {
  /** Hold the room FOR UPDATE and count seats exactly (a shared join found the room near its cap). */
  exclusive?: boolean;
  /** Re-open an ENDED room first (inside a transaction, so that a refusal rolls it back). */
  reopen?: boolean;
};

/** The join's one statement, its one argument (exported for the tests that count what it reads). */
export function joinStatement(
  { tenant, roomId, input, now }: Join,
  {
    knownRoomVersion = null,
    admissionHash = null,
    exclusive = false,
    reopen = false,
  }: JoinMode & {
    knownRoomVersion?: string | null;
    admissionHash?: string | null;
  } = {},
) {
  const profile: Record<string, unknown> = { displayName: input.displayName };
  if (input.avatarUrl !== undefined) profile.avatarUrl = input.avatarUrl;
  if (input.externalRole !== undefined) profile.externalRole = input.externalRole;
  if (input.externalMetadata !== undefined) profile.externalMetadata = input.externalMetadata;
  const argument = {
    tenantId: tenant.id,
    roomId,
    externalUserId: input.externalUserId,
    role: input.role,
    privileged: isModeratorRole(input.role),
    now: now.toISOString(),
    holdSince: holdSince(now).toISOString(),
    planCap: planSeatCap(tenant),
    joinWindowMinutes: tenant.joinWindowMinutes,
    newId: newRowId(),
    mediaIdentity: `p_${randomBase62(20)}`,
    profile,
    permissions: defaultPermissions(input.role),
    participantsLimit: ROOM_PARTICIPANTS_LIMIT,
    knownRoomVersion,
    // Used only if the user is parked in the waiting room: its admission secret's hash, the ids of
    // participant.waiting and of its delivery.
    admissionHash,
    eventId: newEventId(),
    deliveryId: newRowId(),
    exclusive,
    reopen,
  };
  // A named statement: each pooled connection parses and plans it once, not on every join.
  return { name: 'convene_join', text: 'SELECT convene_join($1::jsonb) AS r', values: [JSON.stringify(argument)] };
}

/**
 * Join: the room lock, the seat cap and the waiting room hold under concurrency because the room
 * row is locked for the whole decision, in one statement (convene_join). Two cases call it again:
 * a room found near its cap (alone, counting exactly) and an ended room (re-opened in a
 * transaction that a refusal rolls back). HOST and MODERATOR bypass the lock and the waiting room.
 * The media layer is not called: the token is signed locally and LiveKit creates the room on
 * first connect.
 */
export async function joinRoom({ now = new Date(), ...request }: Omit<Join, 'now'> & { now?: Date }) {
  const join = { ...request, now };
  const { tenant, input } = join;
  const known = knownRoomSnapshot(join.roomId);
  const admission = newAdmissionSecret();
  const statement = (mode: JoinMode) =>
    joinStatement(join, { ...mode, knownRoomVersion: known?.version ?? null, admissionHash: admission.hash });
  let joined = (await sql().query<{ r: JoinOutcome }>(statement({}))).rows[0].r;
  if (joined.outcome === 'slow')
    joined = (await sql().query<{ r: JoinOutcome }>(statement({ exclusive: true }))).rows[0].r;
  if (joined.outcome === 'ended') joined = await reopenAndJoin(statement({ exclusive: true, reopen: true }));

  switch (joined.outcome) {
    case 'waiting': {
      outboxWritten(); // participant.waiting is in the outbox (first park): deliver it now
      const { view } = joined.room ? snapshotOf(join.roomId, joined) : known!;
      const participant = participantFromJson(joined.participant);
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
      const { room, view } = joined.room ? snapshotOf(join.roomId, joined) : known!;
      const participant = participantFromJson(joined.participant);
      const credentials = await mintToken({
        tenant,
        room,
        participant,
        ttlSeconds: input.ttlSeconds,
        lang: input.lang,
      });
      return { ...credentials, waitingForApproval: false, participant: participantView(participant), room: view };
    }
    case 'not_found':
      throw notFound('Room');
    case 'too_early': {
      const opensAt = new Date(roomFromJson(joined.room).scheduledAt!.getTime() - tenant.joinWindowMinutes * 60_000);
      throw new ApiError('TOO_EARLY', `This room opens for joining at ${opensAt.toISOString()}.`);
    }
    case 'locked':
      throw new ApiError('ROOM_LOCKED', 'The room is locked.');
    case 'refused':
      throw forbidden('This participant was refused entry to the room.');
    case 'full':
      throw roomFull(joined.cap);
    case 'slow':
    case 'ended':
      // Only after the exclusive, re-opening call: the room changed under it (ended again).
      throw new ApiError('CONFLICT', 'The room changed during the join; try again.');
  }
}

class Refused extends Error {
  constructor(readonly outcome: JoinOutcome) {
    super(outcome.outcome);
  }
}

/** The join into an ended room: re-opened and joined in one transaction, rolled back unless joined. */
async function reopenAndJoin(statement: ReturnType<typeof joinStatement>): Promise<JoinOutcome> {
  try {
    return await db().$transaction(async (tx) => {
      const [{ r }] = await tx.$queryRawUnsafe<{ r: JoinOutcome }[]>(statement.text, ...statement.values);
      if (r.outcome !== 'ok' && r.outcome !== 'waiting') throw new Refused(r);
      return r;
    });
  } catch (err) {
    if (err instanceof Refused) return err.outcome;
    throw err;
  }
}

function snapshotOf(roomId: string, { roomVersion, room, participants = [] }: Joined) {
  const row = roomFromJson(room!);
  return rememberRoomSnapshot(roomId, {
    version: roomVersion,
    room: row,
    view: roomView(row, participants.map(participantFromJson)),
  });
}
