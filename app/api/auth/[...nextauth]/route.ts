import NextAuth from 'next-auth';
import { authOptions } from '@/lib/console/auth';

// The console's sign-in, sign-out, session and CSRF endpoints (next-auth).
const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };
