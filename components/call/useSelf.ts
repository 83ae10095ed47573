'use client';

import { useCallback, useState } from 'react';
import type { ParticipantApi } from '@/components/call/participant-api';
import { usePolling, type PollOutcome } from '@/components/call/usePolling';

/** Who the participant token belongs to, from OUR records (GET /api/v1/me). */
export interface Self {
  externalUserId: string;
  displayName: string;
  isModerator: boolean;
}

/** Reads GET /api/v1/me once (retrying every 5 s while it fails): null until known. */
export function useSelf(api: ParticipantApi): Self | null {
  const [self, setSelf] = useState<Self | null>(null);
  const load = useCallback(
    async (signal: AbortSignal): Promise<PollOutcome> => {
      const me = await api('GET', '/me');
      if (!signal.aborted)
        setSelf({
          externalUserId: me.participant.externalUserId,
          displayName: me.participant.displayName,
          isModerator: me.isModerator,
        });
      return 'stop';
    },
    [api],
  );
  usePolling(load, 5000);
  return self;
}
