'use client';

import { useCallback, useEffect, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { RoomEvent } from 'livekit-client';
import { useFirstSightSeen } from '@/components/call/useFirstSight';

/**
 * Runs `load` (pass a stable one) now, again after each (re)connect of the room — what was said
 * while away — and every 10 s while it fails. `failed`: the last run threw; `reload` runs it again.
 * The first run waits until the call has shown the others (useFirstSight).
 */
export function useRoomLoad(load: () => Promise<void>) {
  const room = useRoomContext();
  const [failed, setFailed] = useState(false);
  const start = useFirstSightSeen();

  const reload = useCallback(async () => {
    try {
      await load();
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [load]);

  useEffect(() => {
    if (!start) return;
    void reload();
    room.on(RoomEvent.Connected, reload).on(RoomEvent.Reconnected, reload);
    return () => {
      room.off(RoomEvent.Connected, reload).off(RoomEvent.Reconnected, reload);
    };
  }, [room, reload, start]);

  useEffect(() => {
    if (!failed) return;
    const timer = setTimeout(reload, 10_000);
    return () => clearTimeout(timer);
  }, [failed, reload]);

  return { failed, reload };
}
