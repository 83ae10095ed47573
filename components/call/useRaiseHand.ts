'use client';

import { useCallback } from 'react';
import { useLocalParticipant } from '@livekit/components-react';
import { useCall } from '@/components/call/call-context';
import { useBranding } from '@/components/call/HostedShell';
import { useHandRaised } from '@/components/call/useHandRaised';

/**
 * This person's hand, as everyone sees it: the server-written hand attribute (lib/domain/hands.ts)
 * read from the media layer, raised or lowered through POST /api/v1/me/hand. The hand button and
 * the "h" shortcut both use this one state; `enabled` is false where the tenant turned raise hand off.
 */
export function useRaiseHand() {
  const { api } = useCall();
  const { raiseHandEnabled } = useBranding();
  const { localParticipant } = useLocalParticipant();
  const raised = useHandRaised(localParticipant);
  const toggle = useCallback(
    () => void api('POST', '/me/hand', { raised: !raised }).catch(() => undefined),
    [api, raised],
  );
  return { enabled: raiseHandEnabled, raised, toggle };
}
