import { describe, expect, it } from 'vitest';
import { trackReferencesObservable } from '@livekit/components-core';
import { type Room, Track } from 'livekit-client';
import { stageTracks } from '@/components/call/layout/useStageTracks';

// The call stage's tiles (components/call/layout/useStageTracks.ts): the same tiles, in the same
// order, as LiveKit's useTracks gives the stage, and each reference the same object while its
// person and publication are.
type FakePublication = { trackSid: string; source: Track.Source; isSubscribed: boolean };
type FakeParticipant = { identity: string; trackPublications: Map<string, FakePublication> };

const person = (identity: string, ...sources: Track.Source[]): FakeParticipant => ({
  identity,
  trackPublications: new Map(
    sources.map((source, i) => [
      `TR_${identity}_${i}`,
      { trackSid: `TR_${identity}_${i}`, source, isSubscribed: true },
    ]),
  ),
});
const roomOf = (local: FakeParticipant, ...remote: FakeParticipant[]) =>
  ({
    localParticipant: local,
    remoteParticipants: new Map(remote.map((p) => [p.identity, p])),
    on: () => undefined,
    off: () => undefined,
  }) as unknown as Room;
const describeRefs = (refs: ReturnType<typeof stageTracks>) =>
  refs.map((r) => `${r.participant.identity}:${r.source}:${r.publication?.trackSid ?? 'placeholder'}`);

describe('stageTracks', () => {
  const { Camera, Microphone, ScreenShare } = Track.Source;

  it('gives LiveKit’s order: each person’s cameras and screens (you first), then a placeholder for each person without a camera', () => {
    const room = roomOf(
      person('me', Microphone, Camera),
      person('ada', ScreenShare, Camera, Microphone),
      person('bob', Microphone),
      person('cy'),
    );
    const refs = stageTracks(room, new Map());
    expect(describeRefs(refs)).toEqual([
      'me:camera:TR_me_1',
      'ada:camera:TR_ada_1',
      'ada:screen_share:TR_ada_0',
      'bob:camera:placeholder',
      'cy:camera:placeholder',
    ]);
    // The publications are LiveKit's own selection of the same sources.
    let liveKit: string[] = [];
    trackReferencesObservable(room, [Camera, ScreenShare], { onlySubscribed: false })
      .subscribe(({ trackReferences }) => {
        liveKit = describeRefs(trackReferences);
      })
      .unsubscribe();
    expect(refs.filter((r) => r.publication).map((r) => describeRefs([r])[0])).toEqual(liveKit);
  });

  it('keeps each reference while its person and publication are, and makes a new one when they change', () => {
    const ada = person('ada', Camera);
    const bob = person('bob');
    const room = roomOf(person('me'), ada, bob);
    const kept = new Map();
    const first = stageTracks(room, kept);
    // Bob publishes a camera: his placeholder becomes his track; the others' references are the same objects.
    bob.trackPublications.set('TR_bob_cam', { trackSid: 'TR_bob_cam', source: Camera, isSubscribed: false });
    const second = stageTracks(room, kept);
    expect(describeRefs(second)).toEqual(['ada:camera:TR_ada_0', 'bob:camera:TR_bob_cam', 'me:camera:placeholder']);
    expect(second[0]).toBe(first.find((r) => r.participant.identity === 'ada'));
    expect(second[2]).toBe(first.find((r) => r.participant.identity === 'me'));
    // Ada reconnects (a new participant object of the same identity): a new reference.
    const ada2 = person('ada', Camera);
    (room.remoteParticipants as unknown as Map<string, FakeParticipant>).set('ada', ada2);
    const third = stageTracks(room, kept);
    expect(third[0]).not.toBe(second[0]);
    expect(third[0].participant).toBe(ada2);
    expect(third[1]).toBe(second[1]);
  });
});
