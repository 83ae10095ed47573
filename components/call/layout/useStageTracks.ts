'use client';

import { useEffect, useRef, useState } from 'react';
import { useRoomContext, type TrackReferenceOrPlaceholder } from '@livekit/components-react';
import { type Participant, type Room, RoomEvent, Track, type TrackPublication } from 'livekit-client';

/** What changes the stage's tiles: what LiveKit's useTracks listens to (the grid re-sorts by speaker on its own re-renders). */
const STAGE_EVENTS = [
  RoomEvent.ParticipantConnected,
  RoomEvent.ParticipantDisconnected,
  RoomEvent.ConnectionStateChanged,
  RoomEvent.LocalTrackPublished,
  RoomEvent.LocalTrackUnpublished,
  RoomEvent.TrackPublished,
  RoomEvent.TrackUnpublished,
  RoomEvent.TrackSubscriptionStatusChanged,
] as const;

type Kept = Map<string, TrackReferenceOrPlaceholder>;

/**
 * Everyone's camera (a placeholder for whoever has none) and shared screens, in the order LiveKit's
 * `useTracks` gives them: each person's publications (you first), then the placeholders. A
 * reference is the same object for as long as its person and publication are, so a track event
 * re-renders only the tile it concerns (each tile reads its reference from a context).
 */
export function stageTracks(room: Room, kept: Kept): TrackReferenceOrPlaceholder[] {
  const people: Participant[] = [room.localParticipant, ...room.remoteParticipants.values()];
  const next: Kept = new Map();
  const reference = (participant: Participant, source: Track.Source, publication?: TrackPublication) => {
    const key = `${participant.identity}\u0000${source}\u0000${publication?.trackSid ?? ''}`;
    const old = kept.get(key);
    const ref =
      old && old.participant === participant && (old as { publication?: TrackPublication }).publication === publication
        ? old
        : publication
          ? { participant, publication, source }
          : { participant, source };
    next.set(key, ref);
    return ref;
  };
  const refs: TrackReferenceOrPlaceholder[] = [];
  for (const participant of people)
    for (const source of [Track.Source.Camera, Track.Source.ScreenShare])
      for (const publication of participant.trackPublications.values())
        if (publication.source === source) refs.push(reference(participant, source, publication));
  for (const participant of people)
    if (![...participant.trackPublications.values()].some((p) => p.source === Track.Source.Camera))
      refs.push(reference(participant, Track.Source.Camera));
  kept.clear();
  for (const [key, ref] of next) kept.set(key, ref);
  return refs;
}

/** Which of the references' publications are subscribed, as one string. */
const subscriptions = (tracks: TrackReferenceOrPlaceholder[]) =>
  tracks.map((t) => (t.publication?.isSubscribed ? '1' : '0')).join('');

/**
 * The stage's tiles (stageTracks) of the room in context. Unlike LiveKit's `useTracks`, which
 * starts empty and fills in after its first effect, the first render already has everyone: the
 * call's first commit makes the others' tiles and attaches their video, a render sooner.
 */
export function useStageTracks(): TrackReferenceOrPlaceholder[] {
  const room = useRoomContext();
  const kept = useRef<Kept>(new Map());
  const [tracks, setTracks] = useState(() => stageTracks(room, kept.current));
  const shown = useRef({ tracks, subscribed: subscriptions(tracks) });
  useEffect(() => {
    // A new list only when a tile is added, gone or another reference, or a publication's
    // subscription changed (the screen-share focus reads it): the references stay the same.
    const update = () => {
      const next = stageTracks(room, kept.current);
      const subscribed = subscriptions(next);
      const last = shown.current;
      if (
        last.subscribed === subscribed &&
        last.tracks.length === next.length &&
        last.tracks.every((t, i) => t === next[i])
      )
        return;
      shown.current = { tracks: next, subscribed };
      setTracks(next);
    };
    // What changed between the first render and now.
    update();
    for (const event of STAGE_EVENTS) room.on(event, update);
    return () => {
      for (const event of STAGE_EVENTS) room.off(event, update);
    };
  }, [room]);
  return tracks;
}
