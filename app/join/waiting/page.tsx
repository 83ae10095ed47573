import type { Metadata } from 'next';
import { WaitingRoom } from '@/components/call/WaitingRoom';

export const metadata: Metadata = { title: 'Waiting · Convene', referrer: 'no-referrer' };

export default async function WaitingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === 'string' && v ? v : null);
  return <WaitingRoom roomId={one(params.room)} participantId={one(params.participant)} />;
}
