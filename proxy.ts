import { NextResponse, type NextRequest } from 'next/server';
import type { ErrorEnvelope } from '@/lib/errors';
import { newRequestId } from '@/lib/http/context';
import { frameAncestorsPolicy, hostedUiContext } from '@/lib/domain/embedding';
import { chooseLanguage, LANGUAGE_HEADER } from '@/lib/i18n/languages';
import { PAGE_HEADERS, sameOriginAction, scriptPolicy } from '@/lib/http/page-security';
import { isTrustedProxy, PEER_ADDRESS_HEADER } from '@/lib/net/client-address';

/**
 * Every page: the security headers (lib/http/page-security.ts). The hosted call UI may be framed
 * only by the origins its tenant allows; every other page by none. Console server actions must
 * come from this origin.
 */
export async function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname;
  // A path Next cannot percent-decode (/call-assets/%ff) fails its dynamic route's matching with
  // a bare 500: answered here as the bad request it is.
  if (path.startsWith('/api/')) {
    // Reached only for API paths with a percent sign (see config). One Next cannot decode fails its
    // dynamic route with a bare 500: it names nothing of ours, so it is the API's 404 as any such id.
    if (decodable(path)) return NextResponse.next();
    const envelope: ErrorEnvelope = {
      error: { code: 'NOT_FOUND', message: 'Resource not found.', requestId: newRequestId() },
    };
    return NextResponse.json(envelope, { status: 404 });
  }
  if (!decodable(path)) {
    return new NextResponse('Bad Request: the path is not valid percent-encoding.', {
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS },
    });
  }
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
  // The page's language is known before anything renders, so the root layout's <html lang> is
  // right in the served HTML (screen readers and translation tools read it at load): the same
  // choice as the hosted pages make (app/join/page-context.ts). Never taken from the client.
  headers.delete(LANGUAGE_HEADER);
  let origins: string[] = [];
  if (isJoin) {
    const params = req.nextUrl.searchParams;
    const context = await hostedUiContext({ token: params.get('token'), participantId: params.get('participant') });
    origins = context.frameAncestors;
    headers.set(
      LANGUAGE_HEADER,
      chooseLanguage({
        lang: params.get('lang'),
        tenantDefault: context.branding.defaultLanguage,
        acceptLanguage: req.headers.get('accept-language'),
      }),
    );
  }
  const res = NextResponse.next({ request: { headers } });
  for (const [k, v] of Object.entries(PAGE_HEADERS)) res.headers.set(k, v);
  res.headers.set('Content-Security-Policy', `${frameAncestorsPolicy(origins)}; ${scriptPolicy()}`);
  if (!isJoin) res.headers.set('X-Frame-Options', 'DENY');
  return res;
}

function decodable(path: string) {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

// Pages, not Next's static files; of the JSON API (its own headers) only paths with a percent sign.
export const config = { matcher: ['/((?!api/|_next/static|_next/image|favicon.ico).*)', '/api/:path(.*%.*)'] };
