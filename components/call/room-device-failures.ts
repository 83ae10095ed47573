import { type Room, RoomEvent } from 'livekit-client';
import { type DeviceFailure, type DeviceKind, deviceFailure } from '@/components/call/device-failure';

type Listener = (kind: DeviceKind, failure: DeviceFailure) => void;
const watched = new WeakMap<Room, { pending: [DeviceKind, DeviceFailure][]; listener?: Listener }>();

/**
 * Keeps a room's device failures from its start (a camera that fails at the join may fail before
 * the call has rendered), for the one listener `onDeviceFailure` sets.
 */
export function watchDeviceFailures(room: Room) {
  const entry: { pending: [DeviceKind, DeviceFailure][]; listener?: Listener } = { pending: [] };
  watched.set(room, entry);
  room.on(RoomEvent.MediaDevicesError, (error: Error, kind?: MediaDeviceKind) => {
    if (kind === 'audiooutput') return;
    const failed: [DeviceKind, DeviceFailure] = [kind === 'videoinput' ? 'camera' : 'microphone', deviceFailure(error)];
    if (entry.listener) entry.listener(...failed);
    else entry.pending.push(failed);
  });
}

/** Calls `listener` with each device failure of the room, those kept until now first. */
export function onDeviceFailure(room: Room, listener: Listener) {
  const entry = watched.get(room);
  if (!entry) return () => undefined;
  entry.listener = listener;
  for (const failed of entry.pending.splice(0)) listener(...failed);
  return () => {
    if (entry.listener === listener) entry.listener = undefined;
  };
}
