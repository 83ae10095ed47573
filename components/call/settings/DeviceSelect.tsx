'use client';

import { useMediaDeviceSelect, useRoomContext } from '@livekit/components-react';
import { DeviceMenu } from '@/components/call/DeviceMenu';
import { focusRing } from '@/components/call/focus-ring';

/** The room's devices of one kind, the one in use, and how to switch. */
function useRoomDevices(kind: MediaDeviceKind) {
  const room = useRoomContext();
  return useMediaDeviceSelect({ kind, room, requestPermissions: false });
}

/**
 * The devices of one kind as a native select: LiveKit's MediaDeviceSelect renders a list of
 * buttons whose roles axe rejects (a list item inside a button group, nested interactive parts),
 * and a select is what keyboards and screen readers already know.
 */
export function DeviceSelect({ kind, label }: { kind: MediaDeviceKind; label: string }) {
  const { devices, activeDeviceId, setActiveMediaDevice } = useRoomDevices(kind);
  // 'default' (or nothing chosen yet) means the browser's default: the first device listed.
  const value = devices.some((d) => d.deviceId === activeDeviceId) ? activeDeviceId : (devices[0]?.deviceId ?? '');
  return (
    <select
      aria-label={label}
      value={value}
      onChange={(e) => void setActiveMediaDevice(e.target.value)}
      className={`w-full rounded bg-slate-800 px-2 py-1 text-white ${focusRing}`}
    >
      {devices.map((d, i) => (
        <option key={d.deviceId || i} value={d.deviceId}>
          {d.label || `${label} ${i + 1}`}
        </option>
      ))}
    </select>
  );
}

/** The control bar's chevron beside the microphone or camera: the room's devices, opening upwards. */
export function RoomDeviceMenu({ kind, label, kindName }: { kind: MediaDeviceKind; label: string; kindName: string }) {
  const { devices, activeDeviceId, setActiveMediaDevice } = useRoomDevices(kind);
  return (
    <DeviceMenu
      label={label}
      kindName={kindName}
      devices={devices}
      activeId={activeDeviceId}
      onChoose={(deviceId) => void setActiveMediaDevice(deviceId)}
      opens="above"
    />
  );
}
