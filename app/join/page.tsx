import type { Metadata } from 'next';
import { JoinClient } from '@/components/call/JoinClient';

export const metadata: Metadata = { title: 'Join meeting · Convene', referrer: 'no-referrer' };

// The hosted call UI: token and media URL from the query; an E2EE key, if any, from the
// fragment (read in the browser only).
export default async function JoinPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === 'string' && v ? v : null);
  return <JoinClient token={one(params.token)} serverUrl={one(params.url)} />;
}
