import { NextResponse, type NextRequest } from 'next/server';
import { frameAncestorsFor, frameAncestorsPolicy } from '@/lib/domain/embedding';
import { PAGE_HEADERS, sameOriginAction, scriptPolicy } from '@/lib/http/page-security';
import { isTrustedProxy, PEER_ADDRESS_HEADER } from '@/lib/net/client-address';

/**
 * Every page: the security headers (lib/http/page-security.ts). The hosted call UI may be framed
 * only by the origins its tenant allows; every other page by none. Console server actions must
 * come from this origin.
 */
export async function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname;
  const fromProxy = isTrustedProxy(req.headers.get(PEER_ADDRESS_HEADER) ?? '');
  const headers = new Headers(req.headers);
  // X-Forwarded-Host is only believed from a trusted proxy (Next compares server actions' Origin with it).
  if (!fromProxy) headers.delete('x-forwarded-host');

  // Pages take no writes but server actions (Next-Action header, or a no-JS form post): every
  // one must carry a same-origin Origin.
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const host = (fromProxy && req.headers.get('x-forwarded-host')) || req.headers.get('host');
    if (!sameOriginAction(req.headers.get('origin'), host)) {
      return new NextResponse(
        'Forbidden: a console action must come from this origin (same-origin Origin header required).',
        { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS } },
      );
    }
  }

  const isJoin = path === '/join' || path.startsWith('/join/');
  const origins = isJoin
    ? await frameAncestorsFor({
        token: req.nextUrl.searchParams.get('token'),
        participantId: req.nextUrl.searchParams.get('participant'),
      })
    : [];
  const res = NextResponse.next({ request: { headers } });
  for (const [k, v] of Object.entries(PAGE_HEADERS)) res.headers.set(k, v);
  res.headers.set('Content-Security-Policy', `${frameAncestorsPolicy(origins)}; ${scriptPolicy()}`);
  if (!isJoin) res.headers.set('X-Frame-Options', 'DENY');
  return res;
}

// Pages only: not the JSON API (its own headers), not Next's static files.
export const config = { matcher: ['/((?!api/|_next/static|_next/image|favicon.ico).*)'] };
