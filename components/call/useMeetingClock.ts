'use client';

import { useEffect, useState } from 'react';
import { useCall } from '@/components/call/call-context';

/** 0:07, 12:34, 1:02:03 */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/**
 * How long the meeting has run, ticking each second: from its start as the server knows it (the
 * room's current session), or from when this person's call opened until that is read.
 */
export function useMeetingClock(): string {
  const { meeting } = useCall();
  const [opened] = useState(() => Date.now());
  const [now, setNow] = useState(opened);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const started = meeting?.startedAt ? Math.min(Date.parse(meeting.startedAt), opened) : opened;
  return formatElapsed(now - started);
}
