// zod's tree-shakable form: the hosted call UI's bundle reads this module.
import * as z from 'zod/mini';
// Types only: the hosted call UI imports this module, so nothing server-side may load with it.
import type { Participant, Room } from '@/lib/generated/prisma/client';

/**
 * A participant token's metadata claim: its writer (tokenMetadata, on the server) and its reader
 * (readJoinToken and factsFromMetadata, in the hosted call UI) share one schema. The claim is
 * broadcast to every participant, so it holds nothing private.
 */
const META_VERSION = 1;

/** The non-private facts of a room: what the metadata claim carries and /info serves. */
export const roomFactsSchema = z.object({
  metaVersion: z.int(),
  roomId: z.string(),
  roomName: z.string(),
  enableE2EE: z.boolean(),
  enableRecording: z.boolean(),
  autoRecord: z.boolean(),
  enableAiFeatures: z.boolean(),
  enableChat: z.boolean(),
  enableWaitingRoom: z.boolean(),
});
type RoomFacts = z.infer<typeof roomFactsSchema>;

/** The metadata claim: the room facts and who the participant is. */
const tokenMetadataSchema = z.extend(roomFactsSchema, {
  externalUserId: z.string(),
  role: z.string(),
  externalRole: z.nullable(z.string()),
});
type TokenMetadata = z.infer<typeof tokenMetadataSchema>;

type FactsRoom = Pick<Room, 'id' | 'name' | keyof Omit<RoomFacts, 'metaVersion' | 'roomId' | 'roomName'>>;

export function roomFacts(room: FactsRoom): RoomFacts {
  return {
    metaVersion: META_VERSION,
    roomId: room.id,
    roomName: room.name,
    enableE2EE: room.enableE2EE,
    enableRecording: room.enableRecording,
    autoRecord: room.autoRecord,
    enableAiFeatures: room.enableAiFeatures,
    enableChat: room.enableChat,
    enableWaitingRoom: room.enableWaitingRoom,
  };
}

export function tokenMetadata(
  participant: Pick<Participant, 'externalUserId' | 'role' | 'externalRole'>,
  room: FactsRoom,
): string {
  const { metaVersion, roomId, roomName, ...flags } = roomFacts(room);
  const claim: TokenMetadata = {
    metaVersion,
    roomId,
    roomName,
    externalUserId: participant.externalUserId,
    role: participant.role,
    externalRole: participant.externalRole,
    ...flags,
  };
  return JSON.stringify(claim);
}

/**
 * The claim as a reader gets it: a field missing or of the wrong type reads as its default, and a
 * claim without metaVersion predates room facts, so all of it does. Unknown fields are ignored.
 */
type MetadataFacts = { [K in keyof TokenMetadata]: TokenMetadata[K] | (typeof DEFAULT_FACTS)[K] };

export const DEFAULT_FACTS = {
  metaVersion: null,
  roomId: null,
  roomName: null,
  externalUserId: null,
  role: null,
  externalRole: null,
  enableE2EE: false,
  enableRecording: false,
  autoRecord: false,
  enableAiFeatures: false,
  enableChat: true,
  enableWaitingRoom: false,
} satisfies Record<keyof TokenMetadata, unknown>;

/** The facts of a metadata claim (a token's, or a participant's in the call). */
export function factsFromMetadata(metadata: unknown): MetadataFacts {
  const claim = jsonObject(metadata);
  const fields = tokenMetadataSchema.shape;
  if (!claim || !fields.metaVersion.safeParse(claim.metaVersion).success) return { ...DEFAULT_FACTS };
  const facts: Record<string, unknown> = { ...DEFAULT_FACTS };
  for (const [key, schema] of Object.entries(fields)) {
    const read = schema.safeParse(claim[key]);
    if (read.success) facts[key] = read.data;
  }
  return facts as MetadataFacts;
}

function jsonObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * What the hosted UI needs from a participant token, read WITHOUT verifying it (the browser has no
 * secret; the media layer verifies on connect).
 */
export interface JoinToken {
  name: string;
  identity: string;
  expiresAt: Date | null;
  canPublish: boolean;
  canScreenShare: boolean;
  facts: MetadataFacts;
}

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function readJoinToken(token: string): JoinToken | null {
  try {
    const claims = JSON.parse(base64UrlDecode(token.split('.')[1] ?? '')) as Record<string, unknown>;
    const video = (claims.video ?? {}) as { canPublish?: boolean; canPublishSources?: string[] };
    return {
      name: typeof claims.name === 'string' ? claims.name : '',
      identity: typeof claims.sub === 'string' ? claims.sub : '',
      expiresAt: typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null,
      canPublish: video.canPublish !== false,
      canScreenShare: (video.canPublishSources ?? ['screen_share']).includes('screen_share'),
      facts: factsFromMetadata(claims.metadata),
    };
  } catch {
    return null;
  }
}
