'use client';

import { useEffect, useState } from 'react';
import { ParticipantEvent, type Participant } from 'livekit-client';
import { HAND_ATTRIBUTE } from '@/lib/hand-attribute';

/** Whether this participant's hand is up, following their attribute changes (the server writes it). */
export function useHandRaised(participant: Participant): boolean {
  const [raised, setRaised] = useState(() => !!participant.attributes[HAND_ATTRIBUTE]);
  useEffect(() => {
    const update = () => setRaised(!!participant.attributes[HAND_ATTRIBUTE]);
    update();
    participant.on(ParticipantEvent.AttributesChanged, update);
    return () => {
      participant.off(ParticipantEvent.AttributesChanged, update);
    };
  }, [participant]);
  return raised;
}
