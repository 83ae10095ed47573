'use client';

import { useCallback, useEffect, useState } from 'react';
import { useDataChannel, useRoomContext } from '@livekit/components-react';
import { RoomEvent } from 'livekit-client';
import type { ParticipantApi } from '@/components/call/HostPanel';
import { parseLiveUpdate, type LiveUpdate } from '@/components/call/engagement-state';

/**
 * A list read through the participant-token API and kept current from the data channel: loaded
 * once, re-read after a (re)connect, retried every 10 s while loading fails, and merged with each
 * live update of its topic (an unreadable message is only a nudge to re-read).
 */
export function useLiveList<T>(
  api: ParticipantApi,
  path: string,
  topic: string,
  itemOf: (update: LiveUpdate) => T | null,
  merge: (list: T[], item: T) => T[],
) {
  const room = useRoomContext();
  const [items, setItems] = useState<T[] | null>(null);
  const [failed, setFailed] = useState(false);

  const refresh = useCallback(async () => {
    try {
      setItems((await api('GET', path)).data);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [api, path]);

  useEffect(() => {
    void refresh();
    room.on(RoomEvent.Connected, refresh).on(RoomEvent.Reconnected, refresh);
    return () => {
      room.off(RoomEvent.Connected, refresh).off(RoomEvent.Reconnected, refresh);
    };
  }, [room, refresh]);

  useEffect(() => {
    if (!failed) return;
    const timer = setTimeout(refresh, 10_000);
    return () => clearTimeout(timer);
  }, [failed, refresh]);

  const onMessage = useCallback(
    (msg: { topic?: string; payload: Uint8Array }) => {
      const update = parseLiveUpdate(msg.topic, msg.payload);
      const item = update && itemOf(update);
      if (item) setItems((list) => merge(list ?? [], item));
      else void refresh();
    },
    [refresh, itemOf, merge],
  );
  useDataChannel(topic, onMessage);

  const apply = useCallback((item: T) => setItems((list) => merge(list ?? [], item)), [merge]);
  return { items, failed, refresh, apply };
}

/** One action on a live list: the server's answer shown at once, the list re-read, the outcome told. */
export function useListAction<T>({ apply, refresh }: { apply: (item: T) => void; refresh: () => Promise<void> }) {
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (fn: () => Promise<T>, done: string | null) => {
      setBusy(true);
      try {
        apply(await fn());
        setNotice(done);
        void refresh();
        return true;
      } catch (err) {
        setNotice((err as Error).message);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [apply, refresh],
  );
  return { run, notice, busy };
}
