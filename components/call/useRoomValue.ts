'use client';

import { useEffect, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { RoomEvent, type Room } from 'livekit-client';

/** Room events after which a value read from participants' attributes or metadata may differ. */
const PARTICIPANT_EVENTS = [
  RoomEvent.ParticipantAttributesChanged,
  RoomEvent.ParticipantMetadataChanged,
  RoomEvent.ParticipantConnected,
  RoomEvent.ParticipantDisconnected,
  RoomEvent.Connected,
] as const;

/**
 * A value read from the room's participants (`read` must be a stable function), read again on
 * every change of who is in the room and of their attributes and metadata.
 */
export function useRoomValue<T>(read: (room: Room) => T): T {
  const room = useRoomContext();
  const [value, setValue] = useState<T>(() => read(room));
  useEffect(() => {
    const update = () => setValue(read(room));
    for (const e of PARTICIPANT_EVENTS) room.on(e, update);
    update();
    return () => {
      for (const e of PARTICIPANT_EVENTS) room.off(e, update);
    };
  }, [room, read]);
  return value;
}
