'use client';

import { useEffect, useState } from 'react';
import { isTrackReference, useSpeakingParticipants, type TrackReferenceOrPlaceholder } from '@livekit/components-react';
import { Track } from 'livekit-client';
import type { StageLayout } from '@/components/call/layout/stage-layout';

/** What the stage shows: the grid, or one tile large with the others in a strip below (speaker) or beside it (sidebar). */
export type StageView = 'grid' | 'speaker' | 'sidebar';

export interface StageFocus {
  view: StageView;
  focused?: TrackReferenceOrPlaceholder;
  /** Why that tile is large: the moderators' spotlight, this browser's pin, or the active speaker. */
  reason?: 'spotlight' | 'pin' | 'speaker';
}

/**
 * Which tile is large, first match wins: the spotlight for everyone (their shared screen if they
 * share one, else their camera), then this browser's own pin, then — in speaker and sidebar
 * layouts — whoever spoke last among the others (the first other person until someone speaks).
 * A focus in the grid layout shows as the speaker view.
 */
export function useStageFocus(
  tracks: TrackReferenceOrPlaceholder[],
  layout: StageLayout,
  pinned: TrackReferenceOrPlaceholder | undefined,
  spotlight: string | null,
): StageFocus {
  const speaking = useSpeakingParticipants();
  const [lastSpeaker, setLastSpeaker] = useState<string | null>(null);
  const speaker = speaking.find((p) => !p.isLocal)?.identity ?? null;
  useEffect(() => {
    if (speaker) setLastSpeaker(speaker);
  }, [speaker]);
  const focusView: StageView = layout === 'sidebar' ? 'sidebar' : 'speaker';

  const of = (identity: string) => tracks.filter((t) => t.participant.identity === identity);
  if (spotlight) {
    const theirs = of(spotlight);
    const screen = theirs.find((t) => isTrackReference(t) && t.source === Track.Source.ScreenShare);
    const focused = screen ?? theirs.find((t) => t.source === Track.Source.Camera);
    if (focused) return { view: focusView, focused, reason: 'spotlight' };
  }
  if (pinned) return { view: focusView, focused: pinned, reason: 'pin' };
  if (layout === 'grid' || tracks.length === 0) return { view: 'grid' };
  const cameras = tracks.filter((t) => t.source === Track.Source.Camera);
  const focused =
    (lastSpeaker ? cameras.find((t) => t.participant.identity === lastSpeaker) : undefined) ??
    cameras.find((t) => !t.participant.isLocal) ??
    tracks[0];
  return { view: focusView, focused, reason: 'speaker' };
}
