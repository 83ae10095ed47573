// No imports but types: the hosted call UI's first load reads this module, so nothing server-side
// (and no validation library: the claim's fields are flat JSON values) may load with it.
import type { Participant, Room } from '@/lib/generated/prisma/client';

/**
 * A participant token's metadata claim: its writer (tokenMetadata, on the server) and its reader
 * (readJoinToken and factsFromMetadata, in the hosted call UI) share one declaration of its fields,
 * CLAIM_FIELDS. The claim is broadcast to every participant, so it holds nothing private.
 */
const META_VERSION = 1;

/** Each field of the claim and its JSON type; the reader keeps a field only when it has that type. */
const CLAIM_FIELDS = {
  metaVersion: 'integer',
  roomId: 'string',
  roomName: 'string',
  enableE2EE: 'boolean',
  enableRecording: 'boolean',
  autoRecord: 'boolean',
  enableAiFeatures: 'boolean',
  enableChat: 'boolean',
  enableWaitingRoom: 'boolean',
  externalUserId: 'string',
  role: 'string',
  externalRole: 'string or null',
} as const;
type ClaimType = {
  integer: number;
  string: string;
  boolean: boolean;
  'string or null': string | null;
};
type TokenMetadata = { -readonly [K in keyof typeof CLAIM_FIELDS]: ClaimType[(typeof CLAIM_FIELDS)[K]] };

/** The non-private facts of a room: what the metadata claim carries and /info serves (rooms.schemas.ts: roomFactFields). */
export type RoomFacts = Omit<TokenMetadata, 'externalUserId' | 'role' | 'externalRole'>;

const hasType = (type: keyof ClaimType, value: unknown) =>
  type === 'integer'
    ? Number.isSafeInteger(value)
    : type === 'string or null'
      ? value === null || typeof value === 'string'
      : typeof value === type;

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
  if (!claim || !hasType('integer', claim.metaVersion)) return { ...DEFAULT_FACTS };
  const facts: Record<string, unknown> = { ...DEFAULT_FACTS };
  for (const [key, type] of Object.entries(CLAIM_FIELDS)) if (hasType(type, claim[key])) facts[key] = claim[key];
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
