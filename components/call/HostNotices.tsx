'use client';

import { useCallback } from 'react';
import { CallToaster, toast } from '@/components/call/toasts';
import { LIVE_TOPICS } from '@/lib/live-topics';
import type { LiveMessage } from '@/lib/live-messages';
import { useLiveMessages } from '@/components/call/useLiveList';
import { useT } from '@/components/call/useT';

/**
 * What a host did to me, said as a toast: "Hana muted your microphone". The server sends it only to
 * the muted person, on a server-only topic (a peer cannot fake it); the mute itself arrives from the
 * media layer as usual.
 */
export function HostNotices() {
  const t = useT();
  const onMessage = useCallback(
    ({ body }: LiveMessage<typeof LIVE_TOPICS.host>) =>
      toast(body.source === 'microphone' ? t.hostActions.mutedYou(body.by) : t.hostActions.stoppedYourVideo(body.by)),
    [t],
  );
  useLiveMessages(LIVE_TOPICS.host, onMessage);
  return (
    <CallToaster
      position="bottom-center"
      offset={ABOVE_CONTROL_BAR}
      mobileOffset={ABOVE_CONTROL_BAR}
      theme="dark"
      richColors={false}
      closeButton={false}
      duration={6000}
    />
  );
}

// Toasts stand just above the control bar: never over the meeting tools or the controls themselves.
const ABOVE_CONTROL_BAR = { bottom: 'calc(var(--convene-control-bar-height, 4.5rem) + 12px)' };
