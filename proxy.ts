import { NextResponse, type NextRequest } from 'next/server';
import { frameAncestorsFor, frameAncestorsPolicy } from '@/lib/domain/embedding';

// The hosted call UI may be framed only by the origins its tenant allows.
export async function proxy(req: NextRequest) {
  const origins = await frameAncestorsFor({ token: req.nextUrl.searchParams.get('token'), participantId: req.nextUrl.searchParams.get('participant') });
  const res = NextResponse.next();
  res.headers.set('Content-Security-Policy', frameAncestorsPolicy(origins));
  return res;
}

export const config = { matcher: ['/join', '/join/:path*'] };
