'use client';

import { createContext, startTransition, useContext, useEffect, useState } from 'react';
import { type RemoteTrack, type Room, RoomEvent, Track, TrackEvent } from 'livekit-client';

/** The longest the call's tools wait for the first remote video (a slow network, an E2EE key still coming). */
export const FIRST_SIGHT_WAIT_MS = 1000;

/**
 * Whether the call has shown what the person came to see: someone else's camera or screen playing
 * in a tile; at once when no one else's video is on; after FIRST_SIGHT_WAIT_MS at most. Until then
 * the call is its stage, top bar and control bar: the tools around them (panels, captions,
 * reactions, the muted-speech hint) mount, and the call's first API reads start, only after. In a traced join
 * their render and effects held the page's one thread between the tile's attach and its first
 * frame, so a person saw the others later by as long as they took.
 */
export function useFirstSight(room: Room): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (seen) return;
    let settled = false;
    const watched = new Map<RemoteTrack, () => void>();
    const settle = () => {
      if (settled) return;
      settled = true;
      startTransition(() => setSeen(true));
    };
    // Playing (livekit-client's play() resolved) is not yet shown: a render begun then held the
    // frame's first paint. Where the browser tells when a frame is presented, that is awaited.
    const shown = (track: RemoteTrack) => () => {
      const video = track.attachedElements.find((el): el is HTMLVideoElement => el instanceof HTMLVideoElement);
      if (video && 'requestVideoFrameCallback' in video) video.requestVideoFrameCallback(settle);
      else settle();
    };
    const watch = (track: RemoteTrack) => {
      if (track.kind !== Track.Kind.Video || watched.has(track)) return;
      const onPlaying = shown(track);
      watched.set(track, onPlaying);
      track.on(TrackEvent.VideoPlaybackStarted, onPlaying);
    };
    const videoExpected = [...room.remoteParticipants.values()].some((p) =>
      [...p.videoTrackPublications.values()].some((pub) => !pub.isMuted),
    );
    if (!videoExpected) settle();
    for (const p of room.remoteParticipants.values())
      for (const pub of p.videoTrackPublications.values()) if (pub.track) watch(pub.track);
    room.on(RoomEvent.TrackSubscribed, watch);
    const timer = setTimeout(settle, FIRST_SIGHT_WAIT_MS);
    return () => {
      clearTimeout(timer);
      room.off(RoomEvent.TrackSubscribed, watch);
      for (const [track, onPlaying] of watched) track.off(TrackEvent.VideoPlaybackStarted, onPlaying);
    };
  }, [room, seen]);
  return seen;
}

/** useFirstSight's answer for the call's hooks; true outside a call (the waiting room loads at once). */
export const FirstSightContext = createContext(true);

/** Whether the call's first loads may start (FirstSightContext). */
export const useFirstSightSeen = () => useContext(FirstSightContext);
