import { createHmac, type KeyObject } from 'node:crypto';

/**
 * LiveKit signs participant tokens and webhooks with HS256 only. A verifier that accepts any HMAC
 * algorithm (the SDK's does: HS384/HS512 with the same secret verify too) widens what a forged or
 * replayed token may look like, so ours refuses every other `alg` before checking the signature.
 */
export const MEDIA_JWT_ALGORITHM = 'HS256';

/** The `alg` of a compact JWT's protected header, or null when it has none or is not a JWT. */
function jwtAlgorithm(token: string): string | null {
  const header = token.split('.')[0];
  if (!header) return null;
  try {
    const parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    return typeof parsed.alg === 'string' ? parsed.alg : null;
  } catch {
    return null;
  }
}

export const isMediaJwtAlgorithm = (token: string) => jwtAlgorithm(token) === MEDIA_JWT_ALGORITHM;

const HEADER = Buffer.from(JSON.stringify({ alg: MEDIA_JWT_ALGORITHM })).toString('base64url');

/**
 * A compact HS256 JWT of `claims`, signed synchronously with node:crypto. The SDK's AccessToken
 * signs through jose, a chain of async calls per token whose promises the server's async hooks
 * all track: in-process, a join cost 0.07 ms more CPU with it (docs/performance.md). The claims
 * are the SDK's; test/media/livekit.test.ts compares the two tokens.
 */
export function signMediaJwt(claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
