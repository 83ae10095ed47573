'use client';

import { createContext, useCallback, useContext, useState } from 'react';
import { useLocalParticipant, useParticipantInfo } from '@livekit/components-react';
import { factsFromMetadata } from '@/lib/domain/join-token';
import { useParticipantApi } from '@/components/call/useParticipantApi';
import { useCallRoster } from '@/components/call/useCallRoster';
import { MODERATOR_ROLES } from '@/components/call/layout/stage-layout';

export interface SpotlightControl {
  /** Whom everyone's stage focuses (a media identity), or null. */
  spotlighted: string | null;
  /** This participant is a host or moderator (the server checks again). */
  canSpotlight: boolean;
  /** Spotlights the participant with this media identity for everyone, or removes the spotlight (null). */
  spotlight: (identity: string | null) => void;
  /** The server refused or failed the last change (its message), for a status line. */
  error: string | null;
}

export const SpotlightContext = createContext<SpotlightControl>({
  spotlighted: null,
  canSpotlight: false,
  spotlight: () => undefined,
  error: null,
});

export const useSpotlightContext = () => useContext(SpotlightContext);

/**
 * The spotlight as the tiles offer it: moderators (by their own metadata) set it through
 * POST /api/v1/me/spotlight, naming our participant id, which the roster maps from the media identity.
 */
export function useSpotlightControl(token: string | undefined, spotlighted: string | null): SpotlightControl {
  const api = useParticipantApi(token ?? '');
  const { localParticipant } = useLocalParticipant();
  const { metadata } = useParticipantInfo({ participant: localParticipant });
  const role = factsFromMetadata(metadata).role;
  const canSpotlight = !!token && !!role && MODERATOR_ROLES.includes(role);
  const { roster } = useCallRoster(api, canSpotlight);
  const [error, setError] = useState<string | null>(null);
  const spotlight = useCallback(
    (identity: string | null) => {
      const participantId = identity ? roster?.participants.find((p) => p.mediaIdentity === identity)?.id : null;
      if (participantId === undefined) return; // not in our records (yet): nothing to name
      setError(null);
      api('POST', '/me/spotlight', { participantId }).catch((err: Error) => setError(err.message));
    },
    [api, roster],
  );
  return { spotlighted, canSpotlight, spotlight, error };
}
