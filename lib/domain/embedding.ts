import { db } from '@/lib/db';
import {
  CONVENE_BRANDING,
  resolveBranding,
  storedBranding,
  type ResolvedBranding,
} from '@/lib/domain/branding.schemas';
import { normaliseFrameOrigin } from '@/lib/net/origin';

/**
 * Who may frame the hosted call UI: the origins in the tenant's frameAncestors allowlist (set by
 * its provider), found through the participant the page is for. Anything unknown — no token, a
 * token we do not know, a database error — may not frame it. Every other page refuses framing
 * outright (next.config.mjs).
 */
function subjectOf(token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: unknown;
    };
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}

export async function frameAncestorsFor(params: {
  token?: string | null;
  participantId?: string | null;
}): Promise<string[]> {
  return (await hostedUiContext(params)).frameAncestors;
}

/** What a hosted page (/join, /join/waiting) may know about its tenant without a credential. */
interface HostedUiContext {
  frameAncestors: string[];
  branding: ResolvedBranding;
}

/**
 * The non-secret facts of the tenant a hosted page is for, found through the participant (the
 * token's subject on /join, the participant id on /join/waiting): who may frame it (also the only
 * origins the embedding bridge talks to) and its branding. Anything unknown reads as Convene's
 * look and no framing.
 */
export async function hostedUiContext(params: {
  token?: string | null;
  participantId?: string | null;
}): Promise<HostedUiContext> {
  try {
    const identity = params.token ? subjectOf(params.token) : null;
    const select = {
      room: {
        select: {
          tenant: { select: { frameAncestors: true, branding: true, provider: { select: { defaultBranding: true } } } },
        },
      },
    } as const;
    const participant = identity
      ? await db().participant.findUnique({ where: { mediaIdentity: identity }, select })
      : params.participantId
        ? await db().participant.findUnique({ where: { id: params.participantId }, select })
        : null;
    const tenant = participant?.room.tenant;
    if (!tenant) return { frameAncestors: [], branding: CONVENE_BRANDING };
    return {
      frameAncestors: tenant.frameAncestors,
      branding: resolveBranding(
        storedBranding(tenant.branding),
        tenant.provider ? storedBranding(tenant.provider.defaultBranding) : null,
      ),
    };
  } catch {
    return { frameAncestors: [], branding: CONVENE_BRANDING };
  }
}

export function frameAncestorsPolicy(origins: string[]): string {
  // Stored values were normalised when saved; a row from before that rule passes the same check
  // here, so nothing but an origin ever reaches the header.
  const safe = [...new Set(origins.map(normaliseFrameOrigin).filter((o): o is string => o !== null))];
  return `frame-ancestors ${safe.length ? safe.join(' ') : "'none'"}`;
}
