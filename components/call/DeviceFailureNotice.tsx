'use client';

import { useEffect } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { toast } from '@/components/call/toasts';
import { onDeviceFailure } from '@/components/call/room-device-failures';
import { useT } from '@/components/call/useT';

/**
 * A camera or microphone that did not start — at the join or turned on in the call — said as a
 * toast (HostNotices' toaster) with what to do; the person stays in the call with it off.
 */
export function DeviceFailureNotice() {
  const t = useT();
  const room = useRoomContext();
  useEffect(
    () =>
      onDeviceFailure(room, (kind, failure) => toast.error(t.deviceFailure[kind][failure], { id: `device-${kind}` })),
    [room, t],
  );
  return null;
}
