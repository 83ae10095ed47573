/**
 * Access-token checks as LiveKit makes them: HS256 signature with the API secret, `exp`/`nbf`
 * (60 s of skew), and the `video` grant. Grants left out of a token default as LiveKit's do
 * (publish, subscribe and data allowed).
 */
import { TokenVerifier, type ClaimGrants } from 'livekit-server-sdk';
import { TrackSource } from '@livekit/protocol';

interface JoinGrant {
  identity: string;
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  room: string;
  canPublish: boolean;
  canSubscribe: boolean;
  canPublishData: boolean;
  canUpdateOwnMetadata: boolean;
  /** Empty: every source. */
  canPublishSources: TrackSource[];
  hidden: boolean;
  /** An agent's token (LiveKit's kind "agent", or the older video grant `agent`). */
  agent: boolean;
}

const SOURCE_NAMES: Record<string, TrackSource> = {
  camera: TrackSource.CAMERA,
  microphone: TrackSource.MICROPHONE,
  screen_share: TrackSource.SCREEN_SHARE,
  screen_share_audio: TrackSource.SCREEN_SHARE_AUDIO,
};

/**
 * The access token of a signaling request: `Authorization: Bearer` first (LiveKit's Rust SDK, and
 * so @livekit/rtc-node, sends only that), then `?access_token=` (what browsers can send on a
 * WebSocket), as LiveKit's server reads them.
 */
export function requestToken(authorization: string | undefined, query: URLSearchParams): string {
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  return bearer ?? query.get('access_token') ?? '';
}

export class TokenError extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

export function createAuthority(apiKey: string, apiSecret: string) {
  const verifier = new TokenVerifier(apiKey, apiSecret);

  async function claims(token: string): Promise<ClaimGrants> {
    // LiveKit signs and accepts HS256 only.
    const header = token.split('.')[0] ?? '';
    let alg: unknown;
    try {
      alg = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg;
    } catch {
      throw new TokenError(401, 'invalid token: malformed header');
    }
    if (alg !== 'HS256') throw new TokenError(401, 'invalid token: unsupported algorithm');
    try {
      return await verifier.verify(token, 60);
    } catch (err) {
      throw new TokenError(401, `invalid token: ${(err as Error).message}`);
    }
  }

  return {
    claims,
    /** A participant's join grant, or a TokenError with LiveKit's status (401 bad token, 403 no grant). */
    async joinGrant(token: string): Promise<JoinGrant> {
      const c = await claims(token);
      const video = c.video ?? {};
      if (!video.roomJoin) throw new TokenError(401, 'permissions denied: no roomJoin grant');
      if (!video.room) throw new TokenError(401, 'permissions denied: no room in token');
      if (!c.sub) throw new TokenError(401, 'invalid token: no identity');
      const sources = ((video.canPublishSources ?? []) as unknown[])
        .map((s) => (typeof s === 'number' ? s : SOURCE_NAMES[String(s).toLowerCase()]))
        .filter((s): s is TrackSource => s !== undefined);
      return {
        identity: c.sub,
        name: c.name ?? '',
        metadata: c.metadata ?? '',
        attributes: c.attributes ?? {},
        room: video.room,
        canPublish: video.canPublish ?? true,
        canSubscribe: video.canSubscribe ?? true,
        canPublishData: video.canPublishData ?? true,
        canUpdateOwnMetadata: video.canUpdateOwnMetadata ?? false,
        canPublishSources: sources,
        hidden: video.hidden ?? false,
        agent: c.kind === 'agent' || video.agent === true,
      };
    },
  };
}
export type Authority = ReturnType<typeof createAuthority>;
