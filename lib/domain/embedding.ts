import { db } from '@/lib/db';
import { normaliseFrameOrigin } from '@/lib/net/origin';

/**
 * Who may frame the hosted call UI: the origins in the tenant's frameAncestors allowlist (set by
 * its provider), found through the participant the page is for. Anything unknown — no token, a
 * token we do not know, a database error — may not frame it. Every other page refuses framing
 * outright (next.config.mjs).
 */
function subjectOf(token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}

export async function frameAncestorsFor(params: { token?: string | null; participantId?: string | null }): Promise<string[]> {
  try {
    const identity = params.token ? subjectOf(params.token) : null;
    const participant = identity
      ? await db().participant.findUnique({ where: { mediaIdentity: identity }, select: { room: { select: { tenant: { select: { frameAncestors: true } } } } } })
      : params.participantId
        ? await db().participant.findUnique({ where: { id: params.participantId }, select: { room: { select: { tenant: { select: { frameAncestors: true } } } } } })
        : null;
    return participant?.room.tenant.frameAncestors ?? [];
  } catch {
    return [];
  }
}

export function frameAncestorsPolicy(origins: string[]): string {
  // Stored values were normalised when saved; a row from before that rule passes the same check
  // here, so nothing but an origin ever reaches the header.
  const safe = [...new Set(origins.map(normaliseFrameOrigin).filter((o): o is string => o !== null))];
  return `frame-ancestors ${safe.length ? safe.join(' ') : "'none'"}`;
}
