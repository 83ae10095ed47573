'use client';

import { useCallback, useState } from 'react';
import { useDataChannel } from '@livekit/components-react';
import { parseLiveUpdate, type LiveUpdate } from '@/components/call/engagement-state';
import { useRoomLoad } from '@/components/call/useRoomLoad';

/**
 * A list read through the participant-token API and kept current from the data channel: loaded
 * once, re-read after a (re)connect, retried every 10 s while loading fails, and merged with each
 * live update of its topic (an unreadable message is only a nudge to re-read). `load` must be stable.
 */
export function useLiveList<T>(
  load: () => Promise<T[]>,
  topic: string,
  itemOf: (update: LiveUpdate) => T | null,
  merge: (list: T[], item: T) => T[],
) {
  const [items, setItems] = useState<T[] | null>(null);
  const read = useCallback(async () => setItems(await load()), [load]);
  const { failed, reload: refresh } = useRoomLoad(read);

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
