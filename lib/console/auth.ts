import { createHash, randomBytes } from 'node:crypto';
import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { PrismaAdapter } from '@next-auth/prisma-adapter';
import { z } from 'zod';
import { db } from '@/lib/db';
import { verifyPassword } from '@/lib/console/passwords';
import { consumeSignInAttempt, refundSignInAttempt } from '@/lib/console/sign-in-limit';
import { clientAddress } from '@/lib/net/client-address';
import { log } from '@/lib/log';

/**
 * next-auth for the console: email + password, sessions in PostgreSQL (the Session table,
 * written through the Prisma adapter).
 *
 * next-auth v4 only lets the credentials provider issue JWT cookies, so the cookie codec is
 * replaced: "encoding" a token creates a Session row and returns an opaque random id, and
 * "decoding" looks that row up. The cookie is therefore a revocable database session, not a
 * self-contained token; the row stores only a SHA-256 of the cookie value.
 */
const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
const SESSION_UPDATE_AGE_SECONDS = 15 * 60;

const adapter = () => PrismaAdapter(db() as never);
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

const credentials = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(512),
});

interface SessionClaims {
  sub?: string;
  sid?: string;
  email?: string | null;
  name?: string | null;
  exp?: number;
}

export const authOptions: AuthOptions = {
  secret: process.env.NEXTAUTH_SECRET ?? process.env.CONVENE_MASTER_KEY,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
  pages: { signIn: '/console/sign-in', error: '/console/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw, req) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const address = clientAddress((req.headers ?? {}) as Record<string, string>);
        if (!(await consumeSignInAttempt(parsed.data.email, address))) throw new Error('TooManyAttempts');
        const user = await db().user.findUnique({ where: { email: parsed.data.email } });
        const ok = await verifyPassword(parsed.data.password, user?.passwordHash);
        if (!ok || !user) return null;
        await refundSignInAttempt(parsed.data.email, address);
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ],
  jwt: {
    async encode({ token }) {
      const claims = (token ?? {}) as SessionClaims;
      const expires = new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
      if (claims.sid) {
        // An existing session: slide its expiry, at most once per updateAge.
        const remaining = (claims.exp ?? 0) * 1000 - Date.now();
        if (remaining < (SESSION_MAX_AGE_SECONDS - SESSION_UPDATE_AGE_SECONDS) * 1000) {
          await adapter().updateSession!({ sessionToken: digest(claims.sid), expires });
        }
        return claims.sid;
      }
      if (!claims.sub) return '';
      const sid = randomBytes(32).toString('base64url');
      await adapter().createSession!({ sessionToken: digest(sid), userId: claims.sub, expires });
      return sid;
    },
    async decode({ token }) {
      if (!token) return null;
      const found = await adapter().getSessionAndUser!(digest(token));
      if (!found || found.session.expires < new Date()) {
        if (found) await db().session.deleteMany({ where: { sessionToken: digest(token) } });
        return null;
      }
      return {
        sub: found.user.id,
        sid: token,
        email: found.user.email,
        name: found.user.name,
        exp: Math.floor(found.session.expires.getTime() / 1000),
      };
    },
  },
  callbacks: {
    session({ session, token }) {
      return { ...session, user: { ...session.user, id: token.sub } };
    },
  },
  // next-auth's own log lines go through pino (with its redaction). An ended or unknown session
  // is routine ("JWT invalid" in next-auth's words): debug, not error.
  logger: {
    error(code, metadata) {
      if (code === 'JWT_SESSION_ERROR') log.debug({ code }, 'console session ended or unknown');
      else log.error({ code, err: metadata }, 'next-auth error');
    },
    warn(code) {
      log.warn({ code }, 'next-auth warning');
    },
    debug() {},
  },
  events: {
    async signOut({ token }) {
      const sid = (token as SessionClaims | null)?.sid;
      if (sid) await db().session.deleteMany({ where: { sessionToken: digest(sid) } });
    },
  },
};
