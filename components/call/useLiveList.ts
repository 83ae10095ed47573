'use client';

import { useCallback, useEffect, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { RoomEvent } from 'livekit-client';
import { useRoomLoad } from '@/components/call/useRoomLoad';
import type { LiveTopic } from '@/lib/live-topics';
import type { LiveMessage, LiveMessageBody } from '@/lib/live-messages';

type Reader = typeof import('@/lib/live-messages');
let reader: Reader | undefined;
let loadingReader: Promise<Reader> | undefined;
/**
 * The packet reader and its schemas (zod) load with the first packet: joining a call does not wait
 * for them, and most of a call's first minutes bring no packet. Packets that come while it loads
 * are read in their order once it is here (each waits on the one promise, whose callbacks run in
 * the order they were added).
 */
function withReader(read: (r: Reader) => void) {
  if (reader) return read(reader);
  loadingReader ??= import('@/lib/live-messages').then(
    (loaded) => (reader = loaded),
    (err: unknown) => {
      loadingReader = undefined; // offline for a moment: the next packet tries again (lists re-read on reconnect)
      throw err;
    },
  );
  loadingReader.then(read, () => console.debug('convene: the packet reader did not load; a packet was dropped'));
}

/**
 * Each data-channel message on `topic` that parseLiveMessage believes (lib/live-messages.ts: the
 * sender its topic allows, a body its schema accepts). livekit-client's DataReceived names the
 * sender identity the media layer stamped ('' for the server's own packets); useDataChannel drops
 * it, hence the room event here. Anything else is dropped with a debug line; `onUnreadable` runs
 * only for the server's own packets this page cannot read (a newer server: re-read the state),
 * never for a peer's, so a peer cannot make everyone's page re-read. Callbacks must be stable.
 */
export function useLiveMessages<T extends LiveTopic>(
  topic: T,
  onMessage: (message: LiveMessage<T>) => void,
  onUnreadable?: () => void,
) {
  const room = useRoomContext();
  useEffect(() => {
    let subscribed = true;
    const onData = (
      payload: Uint8Array,
      _participant: unknown,
      _kind: unknown,
      packetTopic?: string,
      _encryption?: unknown,
      senderIdentity?: string,
    ) => {
      if (packetTopic !== topic) return;
      withReader(({ parseLiveMessage }) => {
        if (!subscribed) return;
        const message = parseLiveMessage(topic, payload, senderIdentity);
        if (message) return onMessage(message);
        console.debug(`convene: dropped a ${topic} packet from ${senderIdentity || 'the server'}`);
        if (!senderIdentity) onUnreadable?.();
      });
    };
    room.on(RoomEvent.DataReceived, onData);
    return () => {
      subscribed = false;
      room.off(RoomEvent.DataReceived, onData);
    };
  }, [room, topic, onMessage, onUnreadable]);
}

/**
 * A list read through the participant-token API and kept current from the data channel: loaded
 * once, re-read after a (re)connect, retried every 10 s while loading fails, and merged with each
 * live message of its topic. `load` and `itemOf` must be stable.
 */
export function useLiveList<T, Topic extends LiveTopic>(
  load: () => Promise<T[]>,
  topic: Topic,
  itemOf: (body: LiveMessageBody<Topic>) => T,
  merge: (list: T[], item: T) => T[],
) {
  const [items, setItems] = useState<T[] | null>(null);
  const read = useCallback(async () => setItems(await load()), [load]);
  const { failed, reload: refresh } = useRoomLoad(read);

  const onMessage = useCallback(
    (message: LiveMessage<Topic>) => {
      const item = itemOf(message.body);
      setItems((list) => merge(list ?? [], item));
    },
    [itemOf, merge],
  );
  useLiveMessages(topic, onMessage, refresh);

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
