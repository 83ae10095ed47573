/**
 * Reads what the hosted UI needs from a participant token WITHOUT verifying it (the browser has no
 * secret; the media layer verifies on connect). Room facts come from the metadata claim; a token
 * without metaVersion predates room facts, so defaults apply; unknown fields are ignored.
 */
export interface RoomFacts {
  metaVersion: number | null;
  roomId: string | null;
  roomName: string | null;
  role: string | null;
  enableE2EE: boolean;
  enableRecording: boolean;
  autoRecord: boolean;
  enableAiFeatures: boolean;
  enableChat: boolean;
  enableWaitingRoom: boolean;
}

export interface JoinToken {
  name: string;
  identity: string;
  expiresAt: Date | null;
  canPublish: boolean;
  canScreenShare: boolean;
  facts: RoomFacts;
}

export const DEFAULT_FACTS: RoomFacts = {
  metaVersion: null,
  roomId: null,
  roomName: null,
  role: null,
  enableE2EE: false,
  enableRecording: false,
  autoRecord: false,
  enableAiFeatures: false,
  enableChat: true,
  enableWaitingRoom: false,
};

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Room facts from a metadata claim (a token's, or a participant's in the call): defaults without metaVersion, unknown fields ignored. */
export function factsFromMetadata(metadata: unknown): RoomFacts {
  let meta: Record<string, unknown> = {};
  if (typeof metadata === 'string' && metadata) {
    try {
      const parsed: unknown = JSON.parse(metadata);
      if (parsed && typeof parsed === 'object') meta = parsed as Record<string, unknown>;
    } catch {
      meta = {};
    }
  }
  const has = typeof meta.metaVersion === 'number';
  const bool = (k: keyof RoomFacts) =>
    has && typeof meta[k] === 'boolean' ? (meta[k] as boolean) : (DEFAULT_FACTS[k] as boolean);
  const str = (k: string) => (has && typeof meta[k] === 'string' ? (meta[k] as string) : null);
  return {
    metaVersion: has ? (meta.metaVersion as number) : null,
    roomId: str('roomId'),
    roomName: str('roomName'),
    role: str('role'),
    enableE2EE: bool('enableE2EE'),
    enableRecording: bool('enableRecording'),
    autoRecord: bool('autoRecord'),
    enableAiFeatures: bool('enableAiFeatures'),
    enableChat: bool('enableChat'),
    enableWaitingRoom: bool('enableWaitingRoom'),
  };
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
