import type { Participant, Room, Tenant } from '@/lib/generated/prisma/client';
import { db, Prisma, sql, type Tx } from '@/lib/db';
import { randomBase62 } from '@/lib/crypto';
import { newRowId } from '@/lib/ids';
import { ApiError, invalidState, notFound, validationFailed } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { resolveLimits } from '@/lib/domain/plans';
import {
  DEFAULT_RECORDING_PRESET,
  type RecordingPreset,
  type RoomCreateInput,
  type RoomUpdateInput,
  type roomListQuery,
  type RoomResponse,
} from '@/lib/domain/rooms.schemas';
import type { z } from 'zod';
import { participantView } from '@/lib/domain/participants/views';
import { lockRoom } from '@/lib/domain/room-lock';
import { iso, rowFromJson } from '@/lib/domain/time';
import { roomFacts } from '@/lib/domain/join-token';

/** Rooms: the durable handle a tenant keeps. Statuses: WAITING → ACTIVE → ENDED (→ WAITING on reopen). */
const DEFAULT_MAX_PARTICIPANTS = 100;

/**
 * Which participants a Room response carries: those in the room or on their way in (PENDING,
 * WAITING, CONNECTED; not those who left, were removed or denied), in join order, at most
 * ROOM_PARTICIPANTS_LIMIT. GET /rooms/{id}/participants pages through all of them. One reader,
 * in SQL (convene_room_participants, also called by the join's statement): a few index entries
 * per room however many joined. Not Prisma's nested `take`, which reads every present participant
 * of the room and keeps the first ten in memory.
 */
export const ROOM_PARTICIPANTS_LIMIT = 10;

/** The participants each Room response lists, by room id, for any number of rooms in one statement. */
export async function participantsOfRooms(
  roomIds: string[],
  { tx = db() }: { tx?: Tx } = {},
): Promise<Map<string, Participant[]>> {
  const byRoom = new Map<string, Participant[]>(roomIds.map((id) => [id, []]));
  if (roomIds.length === 0) return byRoom;
  const rows = await tx.$queryRaw<Participant[]>`
    SELECT * FROM convene_read_room_participants(${roomIds}::text[], ${ROOM_PARTICIPANTS_LIMIT}::int)`;
  for (const p of rows) byRoom.get(p.roomId)?.push(p);
  return byRoom;
}

/** Room responses for rooms whose participants were not loaded with them. */
export async function roomViews(rooms: Room[], { tx = db() }: { tx?: Tx } = {}): Promise<RoomResponse[]> {
  const participants = await participantsOfRooms(
    rooms.map((r) => r.id),
    { tx },
  );
  return rooms.map((r) => roomView(r, participants.get(r.id) ?? []));
}

export async function roomViewWithParticipants(room: Room, { tx = db() }: { tx?: Tx } = {}): Promise<RoomResponse> {
  const [view] = await roomViews([room], { tx });
  return view;
}

export function roomView(room: Room, participants: Participant[]): RoomResponse {
  return {
    id: room.id,
    tenantId: room.tenantId,
    name: room.name,
    slug: room.slug,
    mediaRoomName: room.mediaRoomName,
    type: room.type,
    maxParticipants: room.maxParticipants,
    enableRecording: room.enableRecording,
    enableChat: room.enableChat,
    enableScreenShare: room.enableScreenShare,
    enableWaitingRoom: room.enableWaitingRoom,
    enableE2EE: room.enableE2EE,
    enableAiFeatures: room.enableAiFeatures,
    allowPublicJoin: room.allowPublicJoin,
    recordingPreset: room.recordingPreset as RecordingPreset,
    isLocked: room.isLocked,
    autoRecord: room.autoRecord,
    status: room.status,
    scheduledAt: iso(room.scheduledAt),
    startedAt: iso(room.startedAt),
    autoEndAt: iso(room.autoEndAt),
    endedAt: iso(room.endedAt),
    duration: room.duration,
    mediaSid: room.mediaSid,
    activeParticipants: room.activeParticipants,
    reopenCount: room.reopenCount,
    createdByExternalId: room.createdByExternalId,
    externalId: room.externalId,
    externalType: room.externalType,
    externalMetadata: room.externalMetadata,
    createdAt: room.createdAt.toISOString(),
    updatedAt: room.updatedAt.toISOString(),
    participants: participants.map(participantView),
  };
}

export async function roomInfo(roomId: string) {
  const room = await db().room.findUnique({ where: { id: roomId } });
  if (!room) throw notFound('Room');
  return {
    id: room.id,
    name: room.name,
    type: room.type,
    status: room.status,
    enableScreenShare: room.enableScreenShare,
    isLocked: room.isLocked,
    scheduledAt: iso(room.scheduledAt),
    ...roomFacts(room),
  };
}

function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return `${base || 'room'}-${randomBase62(6).toLowerCase()}`;
}

export function newMediaRoomName(): string {
  return `cv_${randomBase62(20)}`;
}

function checkSchedule(scheduledAt: Date | null | undefined, autoEndAt: Date | null | undefined, now: Date) {
  if (autoEndAt && autoEndAt <= now) throw validationFailed('autoEndAt', 'must be in the future');
  if (autoEndAt && scheduledAt && autoEndAt <= scheduledAt)
    throw validationFailed('autoEndAt', 'must be after scheduledAt');
}

const ROOM_DATES = ['scheduledAt', 'startedAt', 'autoEndAt', 'endedAt', 'createdAt', 'updatedAt'] as const;

export const roomFromJson = (row: Record<string, unknown>) => rowFromJson<Room>(row, ROOM_DATES);

async function assertRoomCapacityWithinPlan(tenant: Tenant, maxParticipants: number) {
  const limit = resolveLimits(tenant.plan, tenant.entitlementOverrides).maxParticipantsPerRoom;
  if (maxParticipants > limit) {
    throw new ApiError(
      'PLAN_LIMIT_REACHED',
      `maxParticipants ${maxParticipants} exceeds your plan's ${limit} participants per room.`,
    );
  }
}

/**
 * Creates a room in ONE statement (prisma/sql/convene_create_room.sql): the tenant's open-room counter row (TenantRoomCount, kept exact by a
 * trigger on Room) is locked for that statement, checked against the plan's concurrent-room
 * limit, and the room inserted. Concurrent creations cannot race past the limit.
 */
export async function createRoom({
  tenant,
  input,
  type,
  tx,
  now = new Date(),
}: {
  tenant: Tenant;
  input: RoomCreateInput;
  /** Else input.type, else SCHEDULED or INSTANT by input.scheduledAt. */
  type?: Room['type'];
  /** Else the one statement runs on the pool, outside any transaction. */
  tx?: Tx;
  now?: Date;
}) {
  const limits = resolveLimits(tenant.plan, tenant.entitlementOverrides);
  const maxParticipants = input.maxParticipants ?? Math.min(DEFAULT_MAX_PARTICIPANTS, limits.maxParticipantsPerRoom);
  await assertRoomCapacityWithinPlan(tenant, maxParticipants);
  checkSchedule(input.scheduledAt, input.autoEndAt, now);
  if (input.enableE2EE && input.enableAiFeatures) {
    // Captions need the media layer to read audio, which end-to-end encryption prevents.
    throw validationFailed('enableAiFeatures', 'cannot be combined with enableE2EE');
  }
  const name = input.name ?? 'Meeting';
  const at = now.toISOString();
  // Every column (jsonb_populate_record fills absent keys with NULL, not the column default).
  const row: Record<string, unknown> = {
    id: newRowId(),
    tenantId: tenant.id,
    name,
    slug: slugify(name),
    mediaRoomName: newMediaRoomName(),
    type: type ?? input.type ?? (input.scheduledAt ? 'SCHEDULED' : 'INSTANT'),
    maxParticipants,
    enableRecording: input.enableRecording ?? false,
    enableChat: input.enableChat ?? true,
    enableScreenShare: input.enableScreenShare ?? true,
    enableWaitingRoom: input.enableWaitingRoom ?? false,
    enableE2EE: input.enableE2EE ?? false,
    enableAiFeatures: input.enableAiFeatures ?? false,
    allowPublicJoin: input.allowPublicJoin ?? false,
    recordingPreset: input.recordingPreset ?? DEFAULT_RECORDING_PRESET,
    isLocked: false,
    autoRecord: input.autoRecord ?? false,
    status: 'WAITING',
    scheduledAt: iso(input.scheduledAt),
    startedAt: null,
    autoEndAt: iso(input.autoEndAt),
    endedAt: null,
    duration: null,
    mediaSid: null,
    activeParticipants: 0,
    reopenCount: 0,
    createdByExternalId: input.createdByExternalId,
    externalId: input.externalId ?? null,
    externalType: input.externalType ?? null,
    createdAt: at,
    updatedAt: at,
  };
  // A JSON null is no metadata (SQL NULL), as Prisma stored it.
  if (input.externalMetadata != null) row.externalMetadata = input.externalMetadata;
  const limit = Math.min(limits.concurrentLiveRooms, 2_147_483_647);
  const text = `SELECT convene_create_room($1, $2, $3::jsonb) AS r`;
  const result = tx
    ? (await tx.$queryRawUnsafe<{ r: CreatedRoom }[]>(text, tenant.id, limit, JSON.stringify(row)))[0].r
    : (await sql().query<{ r: CreatedRoom }>(text, [tenant.id, limit, JSON.stringify(row)])).rows[0].r;
  if (result.outcome === 'limit') {
    throw new ApiError(
      'PLAN_LIMIT_REACHED',
      `Your plan allows ${limits.concurrentLiveRooms} open rooms at once; end a room first.`,
    );
  }
  return roomFromJson(result.room);
}

type CreatedRoom = { outcome: 'ok'; room: Record<string, unknown> } | { outcome: 'limit' };

export async function findRoom(tenantId: string, roomId: string, { tx = db() }: { tx?: Tx } = {}) {
  const room = await tx.room.findFirst({ where: { id: roomId, tenantId } });
  if (!room) throw notFound('Room');
  return room;
}

export async function getRoom(tenant: Tenant, roomId: string) {
  return roomViewWithParticipants(await findRoom(tenant.id, roomId));
}

export async function listRooms(tenant: Tenant, query: z.infer<typeof roomListQuery>) {
  const page = pageArgs(query);
  const rows = await db().room.findMany({
    where: {
      tenantId: tenant.id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.externalId ? { externalId: query.externalId } : {}),
      ...(query.externalType ? { externalType: query.externalType } : {}),
      ...page.where,
    },
    orderBy: page.orderBy,
    take: page.take,
  });
  const participants = await participantsOfRooms(rows.map((r) => r.id));
  return toPage(rows, query, (r) => roomView(r, participants.get(r.id) ?? []));
}

export async function updateRoom({
  tenant,
  roomId,
  input,
  now = new Date(),
}: {
  tenant: Tenant;
  roomId: string;
  input: RoomUpdateInput;
  now?: Date;
}) {
  const room = await findRoom(tenant.id, roomId);
  if (input.maxParticipants !== undefined) await assertRoomCapacityWithinPlan(tenant, input.maxParticipants);
  checkSchedule(input.scheduledAt === undefined ? room.scheduledAt : input.scheduledAt, input.autoEndAt, now);
  const e2ee = input.enableE2EE ?? room.enableE2EE;
  const ai = input.enableAiFeatures ?? room.enableAiFeatures;
  if (e2ee && ai)
    throw validationFailed(
      input.enableAiFeatures ? 'enableAiFeatures' : 'enableE2EE',
      'enableAiFeatures cannot be combined with enableE2EE',
    );
  const { externalMetadata, ...rest } = input;
  const updated = await db().room.update({
    where: { id: room.id },
    data: {
      ...rest,
      ...(externalMetadata !== undefined
        ? { externalMetadata: (externalMetadata as Prisma.InputJsonValue | null) ?? Prisma.DbNull }
        : {}),
    },
  });
  return roomViewWithParticipants(updated);
}

/** ENDED → WAITING (convene_reopen_room, as a join into an ended room does). */
export async function reopenRoom(tenant: Tenant, roomId: string, now = new Date()) {
  return db().$transaction(async (tx) => {
    const room = await lockRoom({ tx, roomId, tenantId: tenant.id });
    if (room.status !== 'ENDED') throw invalidState(`Room is ${room.status}; only an ENDED room can be reopened.`);
    const [reopened] = await tx.$queryRaw<Room[]>`
      SELECT * FROM convene_reopen_room(${room.id}, ${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
    return roomViewWithParticipants(reopened, { tx });
  });
}
